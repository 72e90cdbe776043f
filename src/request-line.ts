import type { FastifyReply, FastifyRequest } from 'fastify'
import { pino, type Logger } from 'pino'

/** What the "request completed" line reads of a request and its reply. */
export type CompletedRequest = Pick<FastifyRequest, 'id' | 'method' | 'url' | 'ip'>
export type CompletedReply = Pick<FastifyReply, 'statusCode' | 'elapsedTime'>

const { lsCacheSym, timeSym, chindingsSym, endSym, streamSym } = pino.symbols
const INFO = 30
const MESSAGE = ',"msg":"request completed"'

/** One of the parts of a pino logger that pino itself joins into a line (its keys are `pino.symbols`). */
const part = <T>(logger: Logger, key: symbol) => (logger as unknown as Record<symbol, T>)[key] as T

/** pino writes a number that is not finite as null. */
const jsonNumber = (value: number) => (Number.isFinite(value) ? String(value) : 'null')

/**
 * Writes the line `logger.info({ reqId, method, url, remoteAddress, statusCode, responseTime },
 * 'request completed')` would write, byte for byte, from the logger's own level prefix, time,
 * bindings and destination, without going through `info()`: in the service, pino's general
 * path (a merge object made for the call, walked key by key, each key checked for a
 * serializer) cost 1.5 to 3.5 µs of a list request's ~50 (`bench:compare`). Only for loggers
 * made by `createLogger`, whose options the test of this module checks the line against: no
 * formatters, hooks or serializers for these keys. Strings are escaped with JSON.stringify,
 * which matches pino's escaping for every string without a lone surrogate (Node reads a URL
 * as Latin-1).
 */
export function writeRequestLine(logger: Logger, request: CompletedRequest, reply: CompletedReply): void {
  const address = request.ip === undefined ? '' : `,"remoteAddress":${JSON.stringify(request.ip)}`
  const levelPrefixes = part<Record<number, string>>(logger, lsCacheSym)
  part<{ write: (line: string) => unknown }>(logger, streamSym).write(
    `${levelPrefixes[INFO]}${part<() => string>(logger, timeSym)()}${part<string>(logger, chindingsSym)}` +
      `,"reqId":${JSON.stringify(request.id)},"method":${JSON.stringify(request.method)},"url":${JSON.stringify(request.url)}` +
      `${address},"statusCode":${jsonNumber(reply.statusCode)},"responseTime":${jsonNumber(reply.elapsedTime)}` +
      `${MESSAGE}${part<string>(logger, endSym)}`,
  )
}
