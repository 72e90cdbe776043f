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

export const badRequest = (message: string) => new HttpError(400, message)
export const plantNotFound = (id: bigint) => new HttpError(404, `plant ${id} not found`)
export const subscriptionNotFound = (id: string) => new HttpError(404, `webhook subscription ${id} not found`)
export const missingHost = () => badRequest('an HTTP/1.1 request needs a Host header')
export const duplicatePlant = (id: bigint) => badRequest(`plant ${id} already exists`)
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
