import { Type, type TSchema } from '@sinclair/typebox'
import { ErrorSchema, ref } from './schemas.js'

/** The response headers of this API, each described once. */
export const HEADERS = {
  requestId: {
    'X-Request-Id': Type.String({
      minLength: 1,
      maxLength: 128,
      description: "The request's own X-Request-Id when it is 1 to 128 printable ASCII characters, else a generated one",
      examples: ['c0a80101-7f3e-4b8e-9a51-2d1f0c9e4a77'],
    }),
  },
  cors: {
    'Access-Control-Allow-Origin': Type.String({
      maxLength: 200,
      description: "The request's Origin, when CORS_ORIGINS allows it (or * when CORS_ORIGINS is *); absent otherwise",
      examples: ['https://app.example.com'],
    }),
  },
  rateLimit: {
    'RateLimit-Limit': Type.Integer({
      format: 'int32',
      minimum: 1,
      maximum: 1_000_000_000,
      description: 'Requests allowed per minute; sent on every answer of the token guard when the service runs with RATE_LIMIT',
    }),
    'RateLimit-Remaining': Type.Integer({
      format: 'int32',
      minimum: 0,
      maximum: 1_000_000_000,
      description: 'Requests left in the current minute (with RATE_LIMIT)',
    }),
    'RateLimit-Reset': Type.Integer({
      format: 'int32',
      minimum: 0,
      maximum: 60,
      description: 'Seconds until the current minute ends (with RATE_LIMIT)',
    }),
  },
  challenge: {
    'WWW-Authenticate': Type.String({
      maxLength: 200,
      description: 'The Bearer challenge (RFC 6750): error="invalid_token" or error="insufficient_scope" when a token was sent',
      examples: ['Bearer realm="plantstore", error="invalid_token"'],
    }),
  },
  etag: {
    ETag: Type.String({
      maxLength: 30,
      description:
        "The plant's version as a strong entity tag, opaque and never given to two states of one id (a re-created plant's tags are all new): send it back in If-Match to change or delete only this version, in If-None-Match to poll",
      examples: ['"1000000000003"'],
    }),
  },
  retryAfter: {
    'Retry-After': Type.Integer({ format: 'int32', minimum: 1, maximum: 3600, description: 'Seconds to wait before trying again' }),
  },
  allow: {
    Allow: Type.String({ maxLength: 60, description: 'The methods this path allows', examples: ['GET, HEAD, POST'] }),
  },
  location: {
    Location: Type.String({ maxLength: 40, description: 'The path of the new plant: /plants/{id}', examples: ['/plants/7'] }),
  },
  nextPage: {
    Link: Type.String({
      maxLength: 300,
      description: 'RFC 8288 link to the next page, rel="next"; sent whenever the page holds exactly `limit` (> 0) plants',
      examples: ['</plants?limit=100&after=7>; rel="next"'],
    }),
  },
  replayed: {
    'Idempotent-Replayed': Type.Literal('true', {
      description: 'Sent when this is the kept answer of an earlier request with the same Idempotency-Key',
    }),
  },
} as const

type Headers = Record<string, TSchema>

const ERROR_MEANINGS: Record<number, [string, Headers?]> = {
  400: [
    'The request is invalid (on any route: an HTTP/1.1 request without Host, a malformed request line or header); the message names what is wrong. Nothing was changed.',
  ],
  401: ['No bearer token, or one that is unknown, expired or revoked', HEADERS.challenge],
  403: ['The token lacks the scope this operation needs', HEADERS.challenge],
  404: ['No plant with this id that the caller may access'],
  405: ['This path does not allow the method; Allow lists those it does', HEADERS.allow],
  408: ['The request did not arrive within REQUEST_TIMEOUT_MS; the connection is closed'],
  409: ['A request with this Idempotency-Key is still in flight', HEADERS.retryAfter],
  412: [
    'If-Match names no current version (on POST /plants: any tag, the list has none), or If-None-Match names the current one; nothing was changed',
  ],
  417: ['An Expect header other than 100-continue; nothing was done and the connection is closed'],
  422: ['This Idempotency-Key was already used for a different request'],
  428: ['REQUIRE_IF_MATCH is on: send If-Match with the ETag of the version you read (or *)'],
  429: ['Too many requests for this token or client address', HEADERS.retryAfter],
  431: ['The request headers are too large'],
  500: ['A fault of the server; it is logged with the request id'],
  503: [
    'The database is unavailable (or read-only, during a failover), or the service is shutting down; retry after Retry-After seconds',
    HEADERS.retryAfter,
  ],
}

/** What a 404 means, by what the route looks up: an id that is not the caller's is answered exactly as a missing one. */
export const NOT_FOUND = {
  subscription: { 404: 'No webhook subscription with this id that the caller may access' },
  event: { 404: 'No webhook subscription with this id that the caller may access, or no event with this webhook-id in it' },
} as const

/** Statuses any route can answer: sent by the HTTP layer, or by the path's other methods. */
const ANY_ROUTE = [400, 405, 408, 417, 431, 500] as const

interface ResponseOptions {
  /** The body's named schema (or an array of one); none = no body. */
  body?: TSchema | { type: 'array'; items: { $ref: string } | TSchema; [keyword: string]: unknown }
  headers?: Headers
}

/** A response in Fastify's content form, which the document keeps with its headers. */
export function response(description: string, { body, headers = {} }: ResponseOptions = {}): object {
  const allHeaders = { ...HEADERS.requestId, ...HEADERS.cors, ...headers }
  // Without a body, `type: 'null'` keeps the document from declaring any content.
  if (body === undefined) return { type: 'null', description, headers: allHeaders }
  return { description, headers: allHeaders, content: { 'application/json': { schema: '$id' in body ? ref(body as TSchema) : body } } }
}

/** The error responses of a route: those named, and those any route can give; `meanings` are this route's own, over the defaults. */
export function errorResponses(
  statuses: readonly number[],
  { meanings = {} }: { meanings?: Readonly<Record<number, string>> } = {},
): Record<number, object> {
  const all = [...new Set([...statuses, ...ANY_ROUTE])].sort((a, b) => a - b)
  return Object.fromEntries(
    all.map((status) => {
      const [meaning, headers] = ERROR_MEANINGS[status] ?? ['Error']
      return [status, response(meanings[status] ?? meaning, { body: ErrorSchema, headers })]
    }),
  )
}

/** What the token guard itself answers, on every route behind it. */
const GUARD_STATUSES = [401, 403, 429, 503] as const

/**
 * A guarded route's schema as the document shows it: the security requirement of its scope,
 * the guard's own error responses beside the route's, and the rate-limit headers on every
 * answer the guard lets through or refuses (all but 5xx). `tag`: the route's, unless it names one.
 */
export function guardedSchema<Schema extends object>(schema: Schema, scope: string, tag: string): Schema {
  const own = schema as { tags?: readonly string[]; response?: Record<number, object> }
  const responses: Record<number, object> = { ...errorResponses(GUARD_STATUSES), ...own.response }
  for (const [status, answer] of Object.entries(responses)) {
    if (Number(status) >= 500) continue
    const { headers, ...rest } = answer as { headers?: Headers }
    responses[Number(status)] = { ...rest, headers: { ...HEADERS.requestId, ...HEADERS.cors, ...HEADERS.rateLimit, ...headers } }
  }
  return { ...schema, tags: own.tags ?? [tag], security: [{ bearerAuth: [scope] }], response: responses }
}
