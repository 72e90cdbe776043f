import { objectOf, parseJson, stringOf } from './json.js'

/** A call the API refused or failed: the status, the Error body's message and the request id. */
export class PlantStoreError extends Error {
  override readonly name = 'PlantStoreError'

  constructor(
    readonly status: number,
    message: string,
    /** The X-Request-Id of the answer: quote it when asking the operator about this call. */
    readonly requestId: string | null,
  ) {
    super(message)
  }

  /** From an answer that is not a success; its body is the API's Error object when it can be read. */
  static async from(response: Response): Promise<PlantStoreError> {
    let message = `HTTP ${response.status}`
    try {
      message = stringOf(objectOf(parseJson(await response.text()), 'the error').message, 'the error message')
    } catch {
      // Not the API's Error body (a proxy's page, say): the status says what is known.
    }
    return new PlantStoreError(response.status, message, response.headers.get('x-request-id'))
  }
}
