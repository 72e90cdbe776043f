import { connect } from 'node:net'

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

function decodeChunked(body: Buffer): Buffer {
  const parts: Buffer[] = []
  let at = 0
  while (at < body.length) {
    const lineEnd = body.indexOf('\r\n', at)
    if (lineEnd < 0) break
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1'), 16)
    if (!Number.isFinite(size) || size === 0) break
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts)
}

/** Parses one HTTP/1.1 response from the bytes a connection received before it closed. */
export function parseResponse(bytes: Buffer, method = 'GET'): RawResponse {
  const headEnd = bytes.indexOf('\r\n\r\n')
  const head = bytes.subarray(0, headEnd < 0 ? bytes.length : headEnd).toString('latin1')
  const [statusLine = '', ...lines] = head.split('\r\n')
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  )
  let body = headEnd < 0 ? Buffer.alloc(0) : bytes.subarray(headEnd + 4)
  if (method === 'HEAD') body = Buffer.alloc(0)
  else if (headers['transfer-encoding'] === 'chunked') body = decodeChunked(body)
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']))
  return { status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') }
}

const RESETS = new Set(['ECONNRESET', 'EPIPE'])

/** Whether the bytes hold a whole answer: its head and, when it declares a length, all of its body. */
function isWholeResponse(bytes: Buffer, method: string): boolean {
  const headEnd = bytes.indexOf('\r\n\r\n')
  if (headEnd < 0) return false
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(bytes.subarray(0, headEnd).toString('latin1'))
  return method === 'HEAD' || length === null || bytes.length - headEnd - 4 >= Number(length[1])
}

/**
 * Sends bytes as they are (no client library to tidy them up) and parses the one answer.
 * The request must make the server close the connection (Connection: close, or an error):
 * the socket is not half-closed, as Node drops a request whose client has already sent FIN.
 * A server that answers before reading the whole body and then closes makes the kernel send
 * a reset after the answer; the answer still arrived, so only a reset before it is an error.
 */
export function rawRequest(url: string, bytes: string | Buffer, method = 'GET'): Promise<RawResponse> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    const chunks: Buffer[] = []
    let failure: Error | null = null
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')))
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', (error: Error & { code?: string }) => {
      if (!RESETS.has(error.code ?? '') || !isWholeResponse(Buffer.concat(chunks), method)) failure = error
    })
    socket.on('close', () => (failure ? reject(failure) : resolve(parseResponse(Buffer.concat(chunks), method))))
    socket.write(bytes)
  })
}
