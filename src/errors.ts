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

/** The store could not be reached; the client may retry. */
export class StoreUnavailableError extends Error {}

export const badRequest = (message: string) => new HttpError(400, message)
export const notFound = (message: string) => new HttpError(404, message)
export const plantNotFound = (id: bigint) => notFound(`plant ${id} not found`)
export const duplicatePlant = (id: bigint) => badRequest(`plant ${id} already exists`)

export interface ErrorBody {
  error: number
  message: string
}

export const errorBody = (statusCode: number, message: string): ErrorBody => ({ error: statusCode, message })
