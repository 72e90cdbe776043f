import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** An OTLP/HTTP receiver on 127.0.0.1 that reads each export and discards it: a collector that costs the service nothing more than a real one. */
export async function startSink(): Promise<{ url: string; close(): void }> {
  const server = createServer((request, response) => {
    request.resume()
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end())
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}
