import assert from 'node:assert/strict'
import { type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { MalformedAnswerError, PlantStoreClient, PlantStoreConnectionError, PlantStoreError } from '@plantstore/client'

/** Headers and the start of a body, then the connection is cut: the rest never comes. */
function cutMidBody(reply: ServerResponse, start: string): void {
  reply.writeHead(200, { 'content-type': 'application/json', etag: '"1000000000001"', 'content-length': String(start.length + 1000) })
  reply.write(start, () => setTimeout(() => reply.socket?.destroy(), 50))
}

/** A server that answers as a broken proxy or a dying service does. */
function brokenServer(): Server {
  return createServer((request, reply) => {
    const path = request.url ?? ''
    if (path === '/plants/7') return cutMidBody(reply, '{"id":7,"na')
    if (path.startsWith('/plants?') || path === '/plants') return cutMidBody(reply, '[{"id":1,"name":"Fern"},')
    if (path === '/plants/8') {
      reply.writeHead(200, { 'content-type': 'text/html', etag: '"1000000000002"', 'x-request-id': 'req-8' })
      return reply.end('<html><body>Welcome to the proxy</body></html>')
    }
    if (path === '/plants/9') {
      reply.writeHead(200, { 'content-type': 'application/json', etag: '"1000000000003"', 'x-request-id': 'req-9' })
      return reply.end('{"id":9}')
    }
    reply.writeHead(404).end()
  })
}

describe('the typed client against answers that break', () => {
  let server: Server
  let client: PlantStoreClient
  before(async () => {
    server = brokenServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    client = new PlantStoreClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 'pst_test' })
  })
  after(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  const cut: [string, (client: PlantStoreClient) => Promise<unknown>][] = [
    ['getPlant', (c) => c.getPlant(7n)],
    ['listPlants', (c) => c.listPlants({ limit: 10 })],
    [
      'listAll',
      async (c) => {
        for await (const plant of c.listAll()) assert.ok(plant)
      },
    ],
  ]
  for (const [method, call] of cut) {
    test(`${method} with the connection cut mid-body throws a retryable PlantStoreConnectionError`, async () => {
      await assert.rejects(call(client), (error: unknown) => {
        assert.ok(error instanceof PlantStoreConnectionError, `${String(error)}`)
        assert.equal(error.status, 0)
        assert.equal(error.retryable, true)
        assert.match(error.message, /^GET http:\/\/127\.0\.0\.1:\d+\/plants/)
        return true
      })
    })
  }

  test('a 200 that is not JSON is a PlantStoreError with the status and request id, not a SyntaxError', async () => {
    await assert.rejects(client.getPlant(8n), (error: unknown) => {
      assert.ok(error instanceof PlantStoreError, `${String(error)}`)
      assert.ok(!(error instanceof PlantStoreConnectionError))
      assert.ok(error instanceof MalformedAnswerError)
      assert.equal(error.status, 200)
      assert.equal(error.requestId, 'req-8')
      assert.match(error.message, /^GET \/plants\/8: the answer is not the API's: /)
      return true
    })
  })

  test('a 200 whose JSON is not a plant is a PlantStoreError naming what is missing', async () => {
    await assert.rejects(client.getPlant(9n), (error: unknown) => {
      assert.ok(error instanceof PlantStoreError, `${String(error)}`)
      assert.equal(error.status, 200)
      assert.match(error.message, /a plant name is not a string/)
      return true
    })
  })
})
