import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { type InProcessFixture, withFixture } from './helpers/in-process.js'

/** The client address the service logged for the request with this id. */
function loggedAddress(fx: InProcessFixture, requestId: string): string | undefined {
  for (const line of fx.logs().split('\n')) {
    if (!line.includes(`"reqId":"${requestId}"`)) continue
    return (JSON.parse(line) as { remoteAddress?: string }).remoteAddress
  }
  return undefined
}

describe('TRUST_PROXY: which address is the client', () => {
  const table: [string, string | undefined, string, string, string][] = [
    // setting, TCP peer, X-Forwarded-For, the client address the service uses
    ['unset: X-Forwarded-For is ignored', undefined, '127.0.0.1', '203.0.113.7', '127.0.0.1'],
    ['false: ignored', 'false', '127.0.0.1', '203.0.113.7', '127.0.0.1'],
    ['true: the first address of the header', 'true', '127.0.0.1', '203.0.113.7, 10.0.0.2', '203.0.113.7'],
    ['1: one hop is a proxy', '1', '127.0.0.1', '198.51.100.1, 203.0.113.7', '203.0.113.7'],
    ['a trusted CIDR, the peer inside it', '127.0.0.0/8', '127.0.0.1', '203.0.113.7', '203.0.113.7'],
    ['a trusted CIDR, the peer outside it: the header is not believed', '127.0.0.0/8', '192.0.2.9', '203.0.113.7', '192.0.2.9'],
    ['a list of proxies: the nearest untrusted address', '127.0.0.1,10.0.0.0/8', '127.0.0.1', '203.0.113.7, 10.1.2.3', '203.0.113.7'],
  ]
  for (const [what, setting, peer, forwarded, client] of table) {
    test(`${what} → ${client}`, async () => {
      await withFixture(setting === undefined ? {} : { TRUST_PROXY: setting }, async (fx) => {
        const requestId = `proxy-${Math.random()}`
        await fx.app.inject({
          method: 'GET',
          url: '/healthz',
          remoteAddress: peer,
          headers: { 'x-forwarded-for': forwarded, 'x-request-id': requestId },
        })
        assert.equal(loggedAddress(fx, requestId), client)
      })
    })
  }

  test('behind a trusted proxy, clients without a token have a rate-limit bucket each', async () => {
    await withFixture({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT: '2' }, async (fx) => {
      const get = (client: string) =>
        fx.app.inject({ method: 'GET', url: '/plants', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': client } })
      assert.deepEqual(
        [(await get('203.0.113.1')).statusCode, (await get('203.0.113.1')).statusCode, (await get('203.0.113.1')).statusCode],
        [401, 401, 429],
      )
      assert.equal((await get('203.0.113.2')).statusCode, 401)
    })
  })
})

describe('RATE_LIMIT announces what is left', () => {
  test('every /plants answer carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset', async () => {
    await withFixture({ RATE_LIMIT: '5' }, async (fx) => {
      const token = await fx.token('paced')
      const first = await fx.api.request('GET', '/plants', { token })
      assert.equal(first.headers.get('ratelimit-limit'), '5')
      assert.equal(first.headers.get('ratelimit-remaining'), '4')
      assert.ok(Number(first.headers.get('ratelimit-reset')) > 0)
      const refused = await fx.api.request('GET', '/plants', { headers: { authorization: 'Bearer nope' } })
      assert.equal(refused.status, 401)
      assert.equal(refused.headers.get('ratelimit-limit'), '5')
    })
  })
})
