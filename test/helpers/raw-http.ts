import { connect } from 'node:net'

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** Sends bytes as they are (no client library to tidy them up) and parses the one answer. */
export function rawRequest(url: string, bytes: string | Buffer): Promise<RawResponse> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    const chunks: Buffer[] = []
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')))
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head = '', body = ''] = text.split('\r\n\r\n', 2)
      const [statusLine = '', ...lines] = head.split('\r\n')
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      )
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body })
    })
    socket.write(bytes)
    // Half-close so that a keep-alive server still answers and then closes.
    socket.end()
  })
}
