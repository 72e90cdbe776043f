import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { StoreUnavailableError } from '../store/store.js'
import { HttpError, ProviderKeysUnreachableError, ShuttingDownError, errorBody } from './errors.js'
import { BODY_LIMIT } from './json-body.js'

interface Answer {
  statusCode: number
  message: string
  headers?: Readonly<Record<string, string>>
}

/** Fastify's own client errors whose status the contract replaces: every bad request body is a 400. */
const REQUEST_BODY_ERRORS: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: `the body is larger than ${BODY_LIMIT} bytes`,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'the body must be JSON, sent with Content-Type: application/json',
}

/** A failover or a restart of the database takes seconds: a client may try again this soon. */
const RETRY_SOON = { 'retry-after': '2' }

/** Where a JSON merge patch is taken, the refusal of another content type names both. */
const PATCH_MEDIA_TYPES = 'the body must be JSON, sent with Content-Type: application/merge-patch+json or application/json'

function answerFor(error: FastifyError | Error, method: string): Answer {
  if (error instanceof HttpError) return error
  if (error instanceof StoreUnavailableError) {
    return { statusCode: 503, message: 'the database is unavailable; try again later', headers: RETRY_SOON }
  }
  const fastifyError = error as FastifyError
  if (fastifyError.validation) return { statusCode: 400, message: fastifyError.message }
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' && method === 'PATCH') return { statusCode: 400, message: PATCH_MEDIA_TYPES }
  const replaced = fastifyError.code === undefined ? undefined : REQUEST_BODY_ERRORS[fastifyError.code]
  if (replaced !== undefined) return { statusCode: 400, message: replaced }
  const status = fastifyError.statusCode
  if (status !== undefined && status >= 400 && status < 500) return { statusCode: status, message: fastifyError.message }
  return { statusCode: 500, message: 'internal server error' }
}

/** A store that cannot serve, already told in the log (once per change of state): the 503 alone. */
export class LoggedStoreUnavailableError extends StoreUnavailableError {}

/** Every error the app answers goes through here: one shape, and 5xx details only in the log. */
export function sendError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const answer = answerFor(error, request.method)
  // A stop, or a provider down (warned about once), is not an error: the request line shows the 503.
  if (error instanceof ShuttingDownError || error instanceof ProviderKeysUnreachableError || error instanceof LoggedStoreUnavailableError) {
    request.log.debug(error.message)
  } else if (error instanceof StoreUnavailableError) request.log.error({ err: error }, error.message)
  else if (answer.statusCode >= 500) request.log.error({ err: error }, 'request failed')
  if (answer.headers) reply.headers(answer.headers)
  return reply.code(answer.statusCode).send(errorBody(answer.statusCode, answer.message))
}

/** Errors raised before a route is chosen: a URL that cannot be decoded. */
export function frameworkError(_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply
    .header('x-request-id', request.id)
    .header('x-content-type-options', 'nosniff')
    .code(400)
    .send(errorBody(400, 'the URL is not valid: it has a bad percent-encoding or character'))
}

const CLIENT_ERRORS: Record<string, Answer> = {
  HPE_HEADER_OVERFLOW: { statusCode: 431, message: 'the request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { statusCode: 408, message: 'the request took too long to arrive' },
}

/** An Error answer written on the socket itself, for requests that never reach Fastify; the connection closes. */
export function endWithError(socket: Socket, { statusCode, message, headers = {} }: Answer): void {
  const body = JSON.stringify(errorBody(statusCode, message))
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
  socket.end(
    `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      extra.join('') +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${randomUUID()}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  )
}

/** Requests the HTTP parser rejects never reach Fastify's routing; they still get an Error body. */
export function clientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  endWithError(socket, CLIENT_ERRORS[error.code ?? ''] ?? { statusCode: 400, message: 'the request is malformed' })
}

/**
 * Answers Node's HTTP server gives itself unless told otherwise: an Expect other than
 * 100-continue (417), and CONNECT (which never reaches the router: no path allows it).
 */
export function answerServerLevelRequests(server: Server, allowOf: (path: string) => string | null): void {
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify(errorBody(417, 'the only Expect this server meets is 100-continue'))
    response
      .writeHead(417, {
        'content-type': 'application/json; charset=utf-8',
        'x-content-type-options': 'nosniff',
        'x-request-id': randomUUID(),
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      })
      .end(body)
    request.resume()
  })
  server.on('connect', (request: IncomingMessage, socket: Socket) => {
    socket.on('error', () => socket.destroy())
    const allow = allowOf((request.url ?? '').split('?')[0] ?? '')
    endWithError(
      socket,
      allow === null
        ? { statusCode: 404, message: `no route for CONNECT ${request.url ?? ''}` }
        : { statusCode: 405, message: `this path allows only ${allow}`, headers: { Allow: allow } },
    )
  })
}
