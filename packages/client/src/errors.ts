/** A call the API refused or failed: the status, the Error body's message and the request id. */
export class PlantStoreError extends Error {
  override readonly name: string = 'PlantStoreError'

  constructor(
    /** The answer's HTTP status; 0 when no answer came (PlantStoreConnectionError). */
    readonly status: number,
    message: string,
    /** The X-Request-Id of the answer: quote it when asking the operator about this call. */
    readonly requestId: string | null,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }

  /** From an answer that is not a success; its body is the API's Error object when it can be read. */
  static async from(response: Response): Promise<PlantStoreError> {
    return PlantStoreError.fromBody(response, await response.text())
  }

  /** From an answer that is not a success and its body, already read. */
  static fromBody(response: Response, text: string): PlantStoreError {
    let message = `HTTP ${response.status}`
    try {
      const body = JSON.parse(text) as { message?: unknown } | null
      if (typeof body?.message === 'string') message = body.message
    } catch {
      // Not the API's Error body (a proxy's page, say): the status says what is known.
    }
    return new PlantStoreError(response.status, message, response.headers.get('x-request-id'))
  }
}

/**
 * A success whose body is not what the API sends (not JSON, or a plant without a name: a proxy's
 * page, say). `status` and `requestId` are the answer's; 0 and null while a decoder has not been
 * told which answer it reads.
 */
export class MalformedAnswerError extends PlantStoreError {
  override readonly name: string = 'MalformedAnswerError'

  constructor(message: string, status = 0, requestId: string | null = null, options?: ErrorOptions) {
    super(status, message, requestId, options)
  }
}

/** Errors of fetch that mean the request never reached the service, so it had no effect. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT'])

/**
 * A call that got no answer: the service could not be reached, the connection broke, or no
 * answer came within `timeoutMs`. `status` is 0 and `cause` holds what fetch threw. `retryable`
 * says whether the same call may simply be made again: the request never reached the service,
 * or repeating it has no second effect (GET, DELETE, a create with an Idempotency-Key).
 */
export class PlantStoreConnectionError extends PlantStoreError {
  override readonly name: string = 'PlantStoreConnectionError'

  constructor(
    message: string,
    readonly retryable: boolean,
    options: ErrorOptions,
  ) {
    super(0, message, null, options)
  }

  /** From what fetch threw for `method` on `url`; `repeatable` when the call is safe to make again. */
  static of(
    error: unknown,
    method: string,
    url: URL,
    repeatable: boolean,
    timedOut: boolean,
    timeoutMs: number,
  ): PlantStoreConnectionError {
    const code = ((error as { cause?: { code?: unknown } }).cause?.code ?? (error as { code?: unknown }).code) as string | undefined
    const notSent = code !== undefined && NOT_SENT.has(code)
    const why = timedOut ? `no answer within ${timeoutMs} ms` : code !== undefined ? code : (error as Error).message
    return new PlantStoreConnectionError(`${method} ${url.origin}${url.pathname}: ${why}`, notSent || repeatable, { cause: error })
  }
}
