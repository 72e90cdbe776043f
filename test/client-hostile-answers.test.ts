import assert from 'node:assert/strict'
import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { MalformedAnswerError, PlantStoreClient, PlantStoreConnectionError, PlantStoreError } from '@plantstore/client'

const BIG = '99999999999999999999'

/** Links that a broken proxy or service might send, by the `after` asked for. */
const LINKS: Record<string, string> = {
  'bad-limit': '</plants?limit=abc&after=5>; rel="next"',
  'negative-limit': '</plants?limit=-5&after=5>; rel="next"',
  'huge-after': `</plants?limit=5&after=${BIG}>; rel="next"`,
}

/** A server that answers as a login proxy, a stalling service or a looping list would. */
function hostileServer(): Server {
  let looped = 0
  return createServer((request, reply) => {
    const url = new URL(request.url ?? '/', 'http://x')
    const path = url.pathname
    if (path === '/plants/1' && request.method === 'DELETE') {
      reply.writeHead(200, { 'content-type': 'text/html' })
      return reply.end('<html>login</html>')
    }
    if (path === '/plants/2') {
      reply.writeHead(302, { location: '/login' })
      return reply.end()
    }
    if (path === '/login') {
      reply.writeHead(200, { 'content-type': 'text/html' })
      return reply.end('<html>login</html>')
    }
    if (path === '/plants/3') {
      reply.writeHead(200, { 'content-type': 'application/json', etag: '"1"' })
      return reply.write('{"name":') // and nothing more, ever
    }
    if (path === '/plants/4') {
      reply.writeHead(500, { 'content-type': 'application/json' })
      return reply.write('{"message":') // and nothing more, ever
    }
    if (path === '/plants') {
      const tag = url.searchParams.get('tag') ?? ''
      reply.setHeader('content-type', 'application/json')
      if (tag === 'loop') {
        looped += 1
        if (looped > 60) return reply.writeHead(500).end('{"message":"looped"}')
        reply.setHeader('link', '</plants?limit=5&after=5&tag=loop>; rel="next"')
        return reply.end('[{"name":"a"}]')
      }
      if (tag === 'archive') reply.setHeader('link', '</plants?limit=5&after=5>; rel="nextarchive"')
      if (tag === 'big-id') return reply.end(`[{"id":${BIG},"name":"a"}]`)
      const link = LINKS[tag]
      if (link !== undefined) reply.setHeader('link', link)
      return reply.end('[{"name":"a"}]')
    }
    reply.writeHead(404).end()
  })
}

describe('the typed client against hostile answers and bad options', () => {
  let server: Server
  let client: PlantStoreClient
  let baseUrl: string
  before(async () => {
    server = hostileServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    client = new PlantStoreClient({ baseUrl, token: 'pst_test', timeoutMs: 500 })
  })
  after(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })

  test('deletePlant answered 200 with HTML is a MalformedAnswerError, not a success', async () => {
    await assert.rejects(client.deletePlant(1n), (error: unknown) => {
      assert.ok(error instanceof MalformedAnswerError, `${String(error)}`)
      assert.equal(error.status, 200)
      return true
    })
  })

  test('a redirect is not followed: it is a PlantStoreError with its 3xx status', async () => {
    await assert.rejects(client.deletePlant(2n), (error: unknown) => {
      assert.ok(error instanceof PlantStoreError, `${String(error)}`)
      assert.equal(error.status, 302)
      return true
    })
    await assert.rejects(client.getPlant(2n), (error: unknown) => error instanceof PlantStoreError && error.status === 302)
  })

  for (const [what, key] of [
    ['a line break', 'a\nb'],
    ['a non-ASCII character', 'clé-€'],
  ]) {
    test(`an idempotencyKey with ${what} is a TypeError naming the option, before any request`, async () => {
      await assert.rejects(client.createPlant({ id: 1n, name: 'a' }, { idempotencyKey: key }), (error: unknown) => {
        assert.ok(error instanceof TypeError, `${String(error)}`)
        assert.match((error as Error).message, /idempotencyKey/)
        return true
      })
    })
  }

  test('a token that cannot be a header value is a TypeError naming the option', () => {
    assert.throws(
      () => new PlantStoreClient({ baseUrl, token: 'pst_€' }),
      (error: unknown) => {
        assert.ok(error instanceof TypeError, `${String(error)}`)
        assert.match((error as Error).message, /token/)
        return true
      },
    )
  })

  test('an ifMatch that cannot be a header value is a TypeError naming the option', async () => {
    await assert.rejects(client.deletePlant(5n, { ifMatch: '"a"\r\nx: y' }), (error: unknown) => {
      assert.ok(error instanceof TypeError, `${String(error)}`)
      assert.match((error as Error).message, /ifMatch/)
      return true
    })
  })

  for (const pageSize of [0, -1, 1.5, Number.NaN]) {
    test(`listAll with pageSize ${pageSize} is a RangeError, not an empty list`, async () => {
      await assert.rejects(async () => {
        for await (const plant of client.listAll({ pageSize })) assert.ok(plant)
      }, RangeError)
    })
  }

  for (const tag of Object.keys(LINKS)) {
    test(`a Link header with ${tag} is a MalformedAnswerError`, async () => {
      await assert.rejects(client.listPlants({ tag }), (error: unknown) => {
        assert.ok(error instanceof MalformedAnswerError, `${String(error)}`)
        return true
      })
    })
  }

  test('a Link rel="nextarchive" is not the next page', async () => {
    assert.equal((await client.listPlants({ tag: 'archive' })).next, null)
  })

  test('an include=id item whose id is outside int64 is a MalformedAnswerError', async () => {
    await assert.rejects(client.listPlants({ tag: 'big-id', includeId: true }), MalformedAnswerError)
  })

  test('listAll given a next page that does not advance throws a MalformedAnswerError, not a loop', async () => {
    let seen = 0
    await assert.rejects(async () => {
      for await (const plant of client.listAll({ tag: 'loop', pageSize: 5 })) {
        assert.ok(plant)
        seen += 1
      }
    }, MalformedAnswerError)
    assert.ok(seen <= 2, `${seen} plants seen`)
  })

  for (const [what, id] of [
    ['a success', 3n],
    ['a 500', 4n],
  ] as const) {
    test(`${what} whose body stalls is a PlantStoreConnectionError after timeoutMs`, async () => {
      const started = Date.now()
      await assert.rejects(client.getPlant(id), (error: unknown) => {
        assert.ok(error instanceof PlantStoreConnectionError, `${String(error)}`)
        assert.match(error.message, /no answer within 500 ms/)
        return true
      })
      assert.ok(Date.now() - started < 3000)
    })
  }
})
