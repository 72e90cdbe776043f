import { MESSAGE_MAX_LENGTH } from '../api/schemas.js'

/** An error whose status and message are safe to show to the client. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message)
  }
}

// The catalogue of the errors the service answers with: every HttpError is made here.

const REALM = 'Bearer realm="plantstore"'

export const badRequest = (message: string) => new HttpError(400, message)
export const missingHost = () => badRequest('an HTTP/1.1 request needs a Host header')
export const duplicatePlant = (id: bigint) => badRequest(`plant ${id} already exists`)

export const severalTokens = () =>
  badRequest('the request carries more than one credential: send one Authorization header with one Bearer token')
export const tokenMissing = () =>
  new HttpError(401, 'a bearer token is required: send Authorization: Bearer <token>', { 'www-authenticate': REALM })
export const tokenInvalid = () =>
  new HttpError(401, 'the bearer token is unknown, expired or revoked', {
    'www-authenticate': `${REALM}, error="invalid_token", error_description="the token is unknown, expired or revoked"`,
  })
export const scopeMissing = (scope: string) =>
  new HttpError(403, `this token lacks the scope ${scope}`, {
    'www-authenticate': `${REALM}, error="insufficient_scope", scope="${scope}"`,
  })

export const plantNotFound = (id: bigint) => new HttpError(404, `plant ${id} not found`)
export const subscriptionNotFound = (id: string) => new HttpError(404, `webhook subscription ${id} not found`)
export const eventNotFound = (subscriptionId: string, messageId: string) =>
  new HttpError(404, `no event ${messageId} of webhook subscription ${subscriptionId}`)

export const noRoute = (method: string, path: string) => new HttpError(404, `no route for ${method} ${path}`)

export const notAllowed = (allow: string) => new HttpError(405, `this path allows only ${allow}`, { allow })

export const preconditionFailed = (id: bigint) =>
  new HttpError(
    412,
    `plant ${id} is not at a version If-Match names, or is at one If-None-Match names: read it again (its ETag) and retry with that`,
  )
export const readPreconditionFailed = (id: bigint) =>
  new HttpError(412, `plant ${id} is not at a version If-Match names: read it without If-Match to see its current ETag`)
export const plantExists = (id: bigint) => new HttpError(412, `plant ${id} already exists, and If-None-Match names it: nothing was created`)
export const listHasNoTag = (method: 'GET' | 'POST') =>
  new HttpError(
    412,
    `the plant list has no entity tag, so If-Match on ${method} /plants can only be *: ${method === 'POST' ? 'nothing was created' : 'the list is not sent'}`,
  )
export const malformedCondition = (header: string) =>
  badRequest(`${header} must be * or entity tags in double quotes as ETag gives them ("3"), separated by commas`)
export const preconditionRequired = () =>
  new HttpError(428, 'this service requires If-Match on PATCH and DELETE: send the ETag of the version you read, or *')

export const subscriptionHasNoTag = (header: string) =>
  badRequest(
    `a webhook subscription has no entity tag (no ETag, no version), so ${header} cannot be evaluated: send the request without it`,
  )
export const subscriptionDisabled = (id: string) =>
  new HttpError(409, `webhook subscription ${id} is disabled: nothing is sent to it but a ping; enable it (PATCH enabled: true) first`)

export const keyInFlight = () =>
  new HttpError(409, 'a request with this Idempotency-Key is still in flight; retry it shortly', { 'retry-after': '1' })
export const keyMismatch = () =>
  new HttpError(422, 'this Idempotency-Key was already used for a different request; use a new key for a new request')

export const tooManyRequests = (perMinute: number, retryAfterSeconds: number) =>
  new HttpError(429, `too many requests: the limit is ${perMinute} a minute; retry later`, { 'retry-after': String(retryAfterSeconds) })

/**
 * A JWT whose key is not kept while the provider's keys cannot be fetched. Not an error of the
 * service, and any client can cause one: the provider's state is warned about once per change.
 */
export class ProviderKeysUnreachableError extends HttpError {}

export const providerKeysUnreachable = () =>
  new ProviderKeysUnreachableError(503, "the identity provider's signing keys cannot be fetched now; try again later", {
    'retry-after': '30',
  })
/** A request refused because the service is stopping: expected, so not logged as an error. */
export class ShuttingDownError extends HttpError {}

export const shuttingDown = () => new ShuttingDownError(503, 'the service is shutting down; retry the request', { 'retry-after': '1' })

interface ErrorBody {
  error: number
  message: string
}

/** Cuts a message (which may quote a long URL back) to the length the document promises. */
function bounded(message: string): string {
  if (message.length <= MESSAGE_MAX_LENGTH) return message
  return `${[...message].slice(0, MESSAGE_MAX_LENGTH - 1).join('')}…`
}

export const errorBody = (statusCode: number, message: string): ErrorBody => ({ error: statusCode, message: bounded(message) })
