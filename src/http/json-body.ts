import type { FastifyInstance } from 'fastify'
import { parse } from 'lossless-json'
import { badRequest } from './errors.js'

export const BODY_LIMIT = 16 * 1024

const INTEGER_LITERAL = /^-?(0|[1-9][0-9]*)$/

/** Integer literals become bigints so that no id is rounded; other numbers stay doubles. */
const parseNumber = (literal: string): bigint | number =>
  INTEGER_LITERAL.test(literal) ? BigInt(literal) : Number(literal)

/**
 * JSON is the only body this API reads (any other type is a 400). Fastify's own JSON parser
 * reads every number as a double, so this one replaces it.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, text, done) => {
    try {
      done(null, parse(text as string, null, parseNumber))
    } catch (error) {
      const reason = error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message
      done(badRequest(`the body is not valid JSON: ${reason}`), undefined)
    }
  })
}
