import assert from 'node:assert/strict'
import { once } from 'node:events'
import { type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, test } from 'node:test'
import { SignJWT, generateKeyPair } from 'jose'
import { KEYS_MAX_AGE_MS, REFETCH_AFTER_MS } from '../src/auth/provider-keys.js'
import { Api } from './helpers/api.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'
import { AUDIENCE, type IdentityProvider, signingKey, startIdentityProvider } from './helpers/identity-provider.js'

const CLIENTS = [{ id: 'gardener', scope: 'plants:read plants:write' }]
const DISCOVERY = '/.well-known/openid-configuration'

/** The service in this process, listening on 127.0.0.1 (its clock can be moved), with JWTs of `issuer`. */
async function serviceOf(issuer: string): Promise<{ fx: InProcessFixture; api: Api }> {
  const fx = await buildFixture('sqlite', { JWT_ISSUER: issuer, JWT_AUDIENCE: AUDIENCE })
  return { fx, api: await Api.connect(await fx.app.listen({ port: 0, host: '127.0.0.1' })) }
}

const statusOf = async (api: Api, token: string) => (await api.request('GET', '/plants', { token })).status

/** Log lines at error level (50) or above. */
const errorLines = (logs: string) =>
  logs
    .split('\n')
    .filter((line) => line !== '')
    .filter((line) => (JSON.parse(line) as { level: number }).level >= 50)

describe("the provider's keys, over real HTTP", () => {
  test(`a token verified before its key left the JWKS is refused (401) once the keys are refreshed, ${KEYS_MAX_AGE_MS / 1000} s after the last fetch`, async () => {
    const first = await startIdentityProvider(CLIENTS)
    const port = Number(new URL(first.issuer).port)
    const { fx, api } = await serviceOf(first.issuer)
    let rotated: IdentityProvider | null = null
    try {
      const old = await first.token('gardener', 'plants:read')
      assert.equal(await statusOf(api, old), 200)
      await first.stop()
      rotated = await startIdentityProvider(CLIENTS, { key: await signingKey('next-key'), port })
      assert.equal(await statusOf(api, old), 200, 'within the interval the verified token is kept')
      assert.equal(rotated.requests('/jwks'), 0)

      fx.advanceClock(KEYS_MAX_AGE_MS + 1)
      // The first request past the interval refreshes the keys without waiting on the provider.
      const statuses: number[] = []
      for (let i = 0; i < 100 && statuses.at(-1) !== 401; i++) {
        statuses.push(await statusOf(api, old))
        if (statuses.at(-1) !== 401) await sleep(20)
      }
      assert.equal(statuses.at(-1), 401, `answers after the interval: ${statuses.join(' ')}`)
      assert.equal(rotated.requests('/jwks'), 1, 'one refresh')
      assert.equal(await statusOf(api, old), 401, 'and from then on')
      assert.equal(await statusOf(api, await rotated.token('gardener', 'plants:read')), 200, "the new key's tokens work")
    } finally {
      await fx.close()
      await rotated?.stop()
      await first.stop()
    }
  })

  test('20 concurrent requests before the first fetch share one discovery and one JWKS fetch', async () => {
    const idp = await startIdentityProvider(CLIENTS, { answerDelayMs: 200 })
    const { fx, api } = await serviceOf(idp.issuer)
    try {
      const tokens = await Promise.all(Array.from({ length: 20 }, () => idp.token('gardener', 'plants:read')))
      const statuses = await Promise.all(tokens.map((token) => statusOf(api, token)))
      assert.deepEqual(new Set(statuses), new Set([200]))
      assert.equal(idp.requests(DISCOVERY), 1, 'one discovery')
      assert.equal(idp.requests('/jwks'), 1, 'one JWKS fetch')
    } finally {
      await fx.close()
      await idp.stop()
    }
  })

  test(`a provider that is down is asked once by 20 concurrent requests, then not again for ${REFETCH_AFTER_MS / 1000} s`, async () => {
    let asked = 0
    const down = createServer((_request, response) => {
      asked += 1
      setTimeout(() => response.writeHead(503).end(), 100)
    }).listen(0, '127.0.0.1')
    await once(down, 'listening')
    const issuer = `http://127.0.0.1:${(down.address() as AddressInfo).port}`
    const { fx, api } = await serviceOf(issuer)
    try {
      const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => forge(issuer, `kid-${i}`)))
      assert.deepEqual(new Set(await Promise.all(tokens.map((token) => statusOf(api, token)))), new Set([503]))
      assert.equal(asked, 1, 'one fetch for the 20')
      for (const token of tokens.slice(0, 5)) assert.equal(await statusOf(api, token), 503)
      assert.equal(asked, 1, 'none within the cooldown')
      fx.advanceClock(REFETCH_AFTER_MS + 1)
      assert.equal(await statusOf(api, tokens[0] as string), 503)
      assert.equal(asked, 2, 'one more after it')
    } finally {
      await fx.close()
      down.close()
    }
  })

  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  /** Tokens that are no JWT of the provider, each made for the provider at `issuer` whose key is named `kid`. */
  const junk: [string, (issuer: string, kid: string) => Promise<string>][] = [
    ['not a JWT at all', async () => 'not-a-jwt-at-all'],
    ['three parts of nothing', async () => 'a.b.c'],
    ['a header that is not JSON', async () => `${Buffer.from('{{{').toString('base64url')}.${encode({})}.AAAA`],
    ['a header that is an array', async () => `${encode([])}.${encode({})}.AAAA`],
    ['a header that is null', async () => `${encode(null)}.${encode({})}.AAAA`],
    ['a kid that is a number', async () => `${encode({ alg: 'ES256', kid: 7 })}.${encode({})}.AAAA`],
    ['a kid that is an object', async (_issuer, kid) => `${encode({ alg: 'ES256', kid: { kid } })}.${encode({})}.AAAA`],
    ['an alg that is an object', async (_issuer, kid) => `${encode({ alg: { a: 1 }, kid })}.${encode({})}.AAAA`],
    ['a crit header', async (_issuer, kid) => `${encode({ alg: 'ES256', crit: ['x'], x: 1, kid })}.${encode({})}.AAAA`],
    [
      'a payload that is not JSON',
      async (_issuer, kid) => `${encode({ alg: 'ES256', kid })}.${Buffer.from('[').toString('base64url')}.AAAA`,
    ],
    ['a bad signature: another key under the provider kid', (issuer, kid) => forge(issuer, kid)],
    ['a wrong issuer', (_issuer, kid) => forge('https://elsewhere.example', kid)],
  ]
  /** The log lines `token` wrote while it was answered. */
  const answered = async (service: { fx: InProcessFixture; api: Api }, token: string) => {
    const before = service.fx.logs().length
    const status = await statusOf(service.api, token)
    return { status, written: service.fx.logs().slice(before) }
  }

  describe('junk tokens, the keys fetched: 401, and no error-level log line', () => {
    let idp: IdentityProvider
    let service: { fx: InProcessFixture; api: Api }
    before(async () => {
      idp = await startIdentityProvider(CLIENTS)
      service = await serviceOf(idp.issuer)
      assert.equal(await statusOf(service.api, await idp.token('gardener', 'plants:read')), 200)
    })
    after(async () => {
      await service.fx.close()
      await idp.stop()
    })
    for (const [what, make] of junk) {
      test(what, async () => {
        const token = await make(idp.issuer, idp.signingKey.kid)
        const { status, written } = await answered(service, token)
        assert.equal(status, 401)
        assert.deepEqual(errorLines(written), [])
        assert.ok(!written.includes(token), 'the token is not logged')
      })
    }
  })

  describe('junk tokens, the provider down before any fetch: 401 (503 for our issuer), and no error-level log line', () => {
    let down: Server
    let issuer: string
    let service: { fx: InProcessFixture; api: Api }
    before(async () => {
      down = createServer((_request, response) => response.writeHead(503).end()).listen(0, '127.0.0.1')
      await once(down, 'listening')
      issuer = `http://127.0.0.1:${(down.address() as AddressInfo).port}`
      service = await serviceOf(issuer)
    })
    after(async () => {
      await service.fx.close()
      down.close()
    })
    for (const [what, make] of junk) {
      // Only a well-formed token of our issuer may be good: its key cannot be fetched, so 503.
      const expected = what.startsWith('a bad signature') ? 503 : 401
      test(`${what}: ${expected}`, async () => {
        const token = await make(issuer, 'some-kid')
        const { status, written } = await answered(service, token)
        assert.equal(status, expected)
        assert.deepEqual(errorLines(written), [])
        assert.ok(!written.includes(token), 'the token is not logged')
      })
    }
  })
})

async function forge(issuer: string, kid: string): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256')
  return new SignJWT({ scope: 'plants:read' })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid })
    .setIssuer(issuer)
    .setAudience(AUDIENCE)
    .setSubject('gardener')
    .setExpirationTime(Math.floor(Date.now() / 1000) + 300)
    .sign(privateKey)
}
