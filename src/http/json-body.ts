import { isUtf8 } from 'node:buffer'
import type { FastifyBodyParser, FastifyInstance } from 'fastify'
import { parse } from 'lossless-json'
import { badRequest } from './errors.js'

export const BODY_LIMIT = 16 * 1024

const INTEGER_LITERAL = /^-?(0|[1-9][0-9]*)$/

/** Only an escape can make a lone surrogate in text that is valid UTF-8: `\uD800` to `\uDFFF`. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/

/** Integer literals become bigints so that no id is rounded; other numbers stay doubles. */
const parseNumber = (literal: string): bigint | number => (INTEGER_LITERAL.test(literal) ? BigInt(literal) : Number(literal))

class LoneSurrogate extends Error {}

/**
 * A string with an unpaired surrogate (`"\ud800"` in JSON) is no Unicode text: PostgreSQL and
 * SQLite would each store something else than what was acknowledged. Checked for keys too.
 */
function refuseLoneSurrogates(key: string, value: unknown): unknown {
  if (!key.isWellFormed() || (typeof value === 'string' && !value.isWellFormed())) throw new LoneSurrogate()
  return value
}

/**
 * JSON is the only body this API reads (any other type is a 400). Fastify's own JSON parser
 * reads every number as a double and decodes bad UTF-8 leniently, so this one replaces it.
 */
const parseJsonBody: FastifyBodyParser<Buffer> = (request, bytes, done) => {
  // Many HTTP wrappers send Content-Type: application/json on every call: an empty body on a
  // route that takes none is no body, not bad JSON.
  if (bytes.length === 0 && request.routeOptions.schema?.body === undefined) {
    done(null, undefined)
    return
  }
  // Bytes that are not UTF-8 are refused, not replaced with U+FFFD: what is stored is what was sent.
  if (!isUtf8(bytes)) {
    done(badRequest('the body is not valid UTF-8'), undefined)
    return
  }
  const text = bytes.toString('utf8')
  try {
    done(null, parse(text, SURROGATE_ESCAPE.test(text) ? refuseLoneSurrogates : null, parseNumber))
  } catch (error) {
    if (error instanceof LoneSurrogate) {
      done(badRequest('the body holds a string with an unpaired surrogate (such as \\ud800), which is not Unicode text'), undefined)
      return
    }
    const reason = error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message
    done(badRequest(`the body is not valid JSON: ${reason}`), undefined)
  }
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, parseJsonBody)
}

/** JSON merge patches (RFC 7396), read as JSON is, in the scope of the routes that take them. */
export function registerMergePatchParser(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/merge-patch+json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, parseJsonBody)
}
