import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

const CLIENT_REQUEST_ID = /^[\x20-\x7e]{1,128}$/

/** The client's X-Request-Id when it is 1 to 128 printable ASCII characters, else a new one. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id']
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID()
}
