import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Registry } from 'prom-client'
import { after, before, describe, test } from 'node:test'
import { type JWK, SignJWT, exportJWK, generateKeyPair, importJWK } from 'jose'
import { EitherTokenAuthenticator, JwtAuthenticator } from '../src/auth/jwt-tokens.js'
import { OpaqueTokenAuthenticator } from '../src/auth/opaque-tokens.js'
import { loadConfig } from '../src/config/config.js'
import { STORE_KINDS } from '../support/databases.js'
import { runCli } from '../support/service.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'
import { AUDIENCE, type IdentityProvider, offCurveKey, signingKey, startIdentityProvider } from './helpers/identity-provider.js'

const challenge = (response: { headers: Headers }) => response.headers.get('www-authenticate') ?? ''

const CLIENTS = [
  { id: 'gardener', scope: 'plants:read plants:write' },
  { id: 'neighbour', scope: 'plants:read plants:write' },
  { id: 'reader-app', scope: 'plants:read' },
]

for (const kind of STORE_KINDS) {
  describe(`JWT access tokens from an OpenID provider, on ${kind}`, () => {
    let idp: IdentityProvider
    let fx: InProcessFixture

    before(async () => {
      idp = await startIdentityProvider(CLIENTS)
      fx = await buildFixture(kind, { JWT_ISSUER: idp.issuer, JWT_AUDIENCE: AUDIENCE })
    })
    after(async () => {
      await fx.close()
      await idp.stop()
    })

    test('a token got with the client-credentials grant creates and lists; its subject is the client', async () => {
      const token = await idp.token('gardener', 'plants:read plants:write')
      assert.equal(token.split('.').length, 3)
      const created = await fx.api.request('POST', '/plants', { token, json: '{"id":9007199254740993,"name":"From the IdP"}' })
      assert.equal(created.status, 200, created.text)
      assert.deepEqual(await fx.api.listPlants(token), [{ name: 'From the IdP' }])
    })

    test("another client's token sees none of those plants, and cannot delete them", async () => {
      const other = await idp.token('neighbour', 'plants:read plants:write')
      assert.deepEqual(await fx.api.listPlants(other), [])
      assert.equal((await fx.api.request('DELETE', '/plants/9007199254740993', { token: other })).status, 404)
    })

    test('a pst_ token of the same subject reaches the same plants: one namespace of subjects', async () => {
      const opaque = await fx.token('gardener')
      assert.deepEqual(await fx.api.listPlants(opaque), [{ name: 'From the IdP' }])
    })

    test('a token without plants:write gets 403 insufficient_scope on create', async () => {
      const token = await idp.token('reader-app', 'plants:read')
      const response = await fx.api.request('POST', '/plants', { token, json: '{"id":2,"name":"no"}' })
      assert.equal(response.status, 403)
      assert.match(challenge(response), /error="insufficient_scope"/)
      assert.equal((await fx.api.request('GET', '/plants', { token })).status, 200)
    })

    describe('hostile tokens, each 401 invalid_token', () => {
      const base = async (overrides: { header?: Record<string, unknown>; claims?: Record<string, unknown> }, key?: JWK) => {
        const now = Math.floor(Date.now() / 1000)
        const signing = key ?? idp.signingKey
        const jwt = new SignJWT({ scope: 'plants:read plants:write', client_id: 'gardener', ...overrides.claims })
          .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: idp.signingKey.kid, ...overrides.header })
          .setIssuer(idp.issuer)
          .setAudience(AUDIENCE)
          .setSubject('gardener')
          .setIssuedAt(now)
          .setExpirationTime(now + 300)
        if (overrides.claims) {
          for (const [name, value] of Object.entries(overrides.claims)) {
            if (name === 'iss') jwt.setIssuer(value as string)
            if (name === 'aud') jwt.setAudience(value as string)
            if (name === 'exp') jwt.setExpirationTime(value as number)
          }
        }
        return jwt.sign(await importJWK(signing, 'ES256'))
      }

      test("a forged token with the provider's own key, as a control, is accepted", async () => {
        assert.equal((await fx.api.request('GET', '/plants', { token: await base({}) })).status, 200)
      })

      const unsigned = () => {
        const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
        const now = Math.floor(Date.now() / 1000)
        return `${encode({ alg: 'none', typ: 'at+jwt' })}.${encode({ iss: idp.issuer, aud: AUDIENCE, sub: 'gardener', exp: now + 300, scope: 'plants:read' })}.`
      }
      const hostile: [string, () => Promise<string>][] = [
        ['alg none, no signature', async () => `${unsigned()}AAAA`],
        [
          "HS256 signed with the provider's public key as the secret",
          async () => {
            const { d: _d, ...publicJwk } = idp.signingKey
            const now = Math.floor(Date.now() / 1000)
            return new SignJWT({ scope: 'plants:read' })
              .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: idp.signingKey.kid })
              .setIssuer(idp.issuer)
              .setAudience(AUDIENCE)
              .setSubject('gardener')
              .setExpirationTime(now + 300)
              .sign(new TextEncoder().encode(JSON.stringify(publicJwk)))
          },
        ],
        [
          "a foreign key that claims the provider's kid",
          async () => {
            const { privateKey } = await generateKeyPair('ES256', { extractable: true })
            return base({}, await exportJWK(privateKey))
          },
        ],
        ['another audience', () => base({ claims: { aud: 'https://other.example/api' } })],
        ['the issuer with a trailing slash', () => base({ claims: { iss: `${idp.issuer}/` } })],
        ['expired past the 30 s tolerance', () => base({ claims: { exp: Math.floor(Date.now() / 1000) - 120 } })],
        ['an ID-token-shaped typ: JWT', () => base({ header: { typ: 'JWT' } })],
      ]
      for (const [what, make] of hostile) {
        test(what, async () => {
          const response = await fx.api.request('GET', '/plants', { token: await make() })
          assert.equal(response.status, 401, response.text)
          assert.match(challenge(response), /error="invalid_token"/)
        })
      }

      test('a token in the query string is never accepted, and never logged', async () => {
        const token = await idp.token('gardener', 'plants:read')
        const response = await fx.api.request('GET', `/plants?access_token=${token}`)
        assert.equal(response.status, 401)
        assert.ok(!fx.logs().includes(token), 'the token is not in the log')
        assert.match(fx.logs(), /access_token=\[masked\]/)
      })
    })

    test('no claim but the subject reaches the log', async () => {
      const token = await idp.token('gardener', 'plants:read')
      await fx.api.request('GET', '/plants', { token })
      assert.ok(!fx.logs().includes(token))
      assert.ok(!fx.logs().includes(AUDIENCE))
    })
  })
}

describe("the provider's keys", () => {
  const jwtConfig = (issuer: string) => {
    const config = loadConfig({ JWT_ISSUER: issuer, JWT_AUDIENCE: AUDIENCE }).jwt
    assert.ok(config)
    return config
  }

  test('a rotated key is accepted after a refetch, and the cached keys keep working while the provider is down', async () => {
    const first = await startIdentityProvider(CLIENTS)
    const port = Number(new URL(first.issuer).port)
    // A short refetch interval, so that the test need not wait the 30 s of production.
    const authenticator = new JwtAuthenticator(jwtConfig(first.issuer), Date.now, 50)
    const oldToken = await first.token('gardener', 'plants:read')
    assert.equal((await authenticator.authenticate(oldToken))?.subject, 'gardener')
    await first.stop()

    const rotated = await startIdentityProvider(CLIENTS, { key: await signingKey('rotated-key'), port })
    try {
      await new Promise((resolve) => setTimeout(resolve, 60))
      const newToken = await rotated.token('gardener', 'plants:read')
      assert.equal((await authenticator.authenticate(newToken))?.subject, 'gardener', 'the new kid was fetched')
    } finally {
      await rotated.stop()
    }

    await new Promise((resolve) => setTimeout(resolve, 60))
    const cachedAgain = new JwtAuthenticator(jwtConfig(first.issuer), Date.now, 50)
    await assert.rejects(Promise.resolve(cachedAgain.authenticate(oldToken)), /cannot be fetched/, 'no key was ever fetched: 503')
  })

  test('provider down: a token of a fetched key still works; an unknown kid is a 503, not a 401', async () => {
    const idp = await startIdentityProvider(CLIENTS)
    const authenticator = new JwtAuthenticator(jwtConfig(idp.issuer), Date.now, 50)
    const [first, second] = [await idp.token('gardener', 'plants:read'), await idp.token('gardener', 'plants:read')]
    assert.notEqual(first, second)
    assert.equal((await authenticator.authenticate(first))?.subject, 'gardener')
    await idp.stop()
    await new Promise((resolve) => setTimeout(resolve, 60))
    assert.equal((await authenticator.authenticate(second))?.subject, 'gardener', 'cached keys while the provider is down')
    await assert.rejects(
      Promise.resolve(authenticator.authenticate(await forgeWithKid(idp.issuer, 'unknown-kid'))),
      (error: Error & { statusCode?: number }) => error.statusCode === 503,
    )
  })

  test('a provider that cannot be reached: the cause logged once per change of state, every fetch counted', async () => {
    // JWT_ISSUER with a typo: discovery answers 404.
    const server = createServer((_request, response) => response.writeHead(404).end()).listen(0, '127.0.0.1')
    await once(server, 'listening')
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/typo`
    const warnings: [Record<string, unknown>, string][] = []
    const authenticator = new JwtAuthenticator(jwtConfig(issuer), Date.now, 20, (details, message) => warnings.push([details, message]))
    const registry = new Registry()
    authenticator.registerMetrics(registry)
    try {
      for (let i = 0; i < 3; i++) {
        await assert.rejects(
          Promise.resolve(authenticator.authenticate(await forgeWithKid(issuer, 'any'))),
          (error: Error & { statusCode?: number }) => error.statusCode === 503,
        )
        await new Promise((resolve) => setTimeout(resolve, 30))
      }
      assert.deepEqual(warnings, [
        [
          { url: `${issuer}/.well-known/openid-configuration`, status: 404, reason: 'Not Found' },
          "the identity provider's keys cannot be fetched: JWTs signed with a key not yet fetched answer 503",
        ],
      ])
      assert.match(await registry.metrics(), /^jwks_fetches_total\{result="failure"\} 3$/m)
    } finally {
      server.close()
    }
  })

  test('a discovered JWKS answering a junk 200, then a 302: the warning names its URL and status, each a failed fetch', async () => {
    let jwksAnswer: 'junk' | 'redirect' = 'junk'
    const server = createServer((request, response) => {
      if (request.url === '/.well-known/openid-configuration')
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }))
      else if (jwksAnswer === 'junk') response.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":"nope"}')
      else response.writeHead(302, { location: `${issuer}/elsewhere` }).end()
    }).listen(0, '127.0.0.1')
    await once(server, 'listening')
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const warnings: Record<string, unknown>[] = []
    const authenticator = new JwtAuthenticator(jwtConfig(issuer), Date.now, 20, (details) => warnings.push(details))
    const registry = new Registry()
    authenticator.registerMetrics(registry)
    const unavailable = (error: Error & { statusCode?: number }) => error.statusCode === 503
    try {
      await assert.rejects(Promise.resolve(authenticator.authenticate(await forgeWithKid(issuer, 'any'))), unavailable)
      await new Promise((resolve) => setTimeout(resolve, 30))
      jwksAnswer = 'redirect'
      await assert.rejects(Promise.resolve(authenticator.authenticate(await forgeWithKid(issuer, 'other'))), unavailable)
      assert.deepEqual(warnings, [
        { url: `${issuer}/jwks`, status: 200, reason: 'JSON Web Key Set malformed' },
        { url: `${issuer}/jwks`, status: 302, reason: 'unexpected redirect' },
      ])
      const metrics = await registry.metrics()
      assert.match(metrics, /^jwks_fetches_total\{result="success"\} 1$/m, 'the discovery only')
      assert.match(metrics, /^jwks_fetches_total\{result="failure"\} 2$/m)
    } finally {
      server.close()
    }
  })

  test('a key of the JWKS that cannot be imported: its tokens get 401, and a key published next is fetched at once', async () => {
    const refetchAfterMs = 1_000
    const unusable = offCurveKey('off-curve')
    const first = await startIdentityProvider(CLIENTS, { unusableKeys: [unusable] })
    const port = Number(new URL(first.issuer).port)
    const warnings: string[] = []
    const authenticator = new JwtAuthenticator(jwtConfig(first.issuer), Date.now, refetchAfterMs, (_details, message) =>
      warnings.push(message),
    )
    const registry = new Registry()
    authenticator.registerMetrics(registry)
    assert.equal((await authenticator.authenticate(await first.token('gardener', 'plants:read')))?.subject, 'gardener')
    await first.stop()

    const rotated = await startIdentityProvider(CLIENTS, { key: await signingKey('published-next'), port, unusableKeys: [unusable] })
    try {
      // Past the refetch interval of the first fetch, so that an unknown kid may fetch again (and
      // past the closing of the first provider's kept-alive connections).
      await new Promise((resolve) => setTimeout(resolve, refetchAfterMs + 100))
      const newToken = await rotated.token('gardener', 'plants:read')
      assert.equal(await authenticator.authenticate(await forgeWithKid(rotated.issuer, 'off-curve')), null, 'junk token: 401')
      assert.equal((await authenticator.authenticate(newToken))?.subject, 'gardener', 'the key published next was fetched')
      assert.deepEqual(warnings, ["a key of the identity provider's JWKS cannot be used; its tokens are refused"])
      assert.match(await registry.metrics(), /^jwks_fetches_total\{result="failure"\} 0$/m)
    } finally {
      await rotated.stop()
    }
  })

  test('opaque and JWT credentials are told apart by shape', async () => {
    const calls: string[] = []
    const either = new EitherTokenAuthenticator(
      { authenticate: () => (calls.push('opaque'), null) } as unknown as OpaqueTokenAuthenticator,
      { authenticate: () => (calls.push('jwt'), null) },
    )
    await either.authenticate('pst_abc')
    await either.authenticate('aaa.bbb.ccc')
    await either.authenticate('aaa.bbb')
    assert.deepEqual(calls, ['opaque', 'jwt', 'opaque'])
  })
})

async function forgeWithKid(issuer: string, kid: string): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256')
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ scope: 'plants:read' })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid })
    .setIssuer(issuer)
    .setAudience(AUDIENCE)
    .setSubject('gardener')
    .setExpirationTime(now + 300)
    .sign(privateKey)
}

describe('JWT configuration', () => {
  const bad: [string, Record<string, string>][] = [
    ['JWT_AUDIENCE', { JWT_ISSUER: 'https://id.example.com' }],
    ['JWT_ALGORITHMS', { JWT_ISSUER: 'https://id.example.com', JWT_AUDIENCE: 'api', JWT_ALGORITHMS: 'HS256' }],
    ['JWT_ALGORITHMS', { JWT_ISSUER: 'https://id.example.com', JWT_AUDIENCE: 'api', JWT_ALGORITHMS: 'RS256,none' }],
    ['JWT_ISSUER', { JWT_ISSUER: 'id.example.com', JWT_AUDIENCE: 'api' }],
  ]
  for (const [variable, env] of bad) {
    test(`${Object.entries(env)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ')} stops serve naming ${variable}`, async () => {
      const result = await runCli(['serve'], env)
      assert.notEqual(result.code, 0)
      assert.match(result.stderr.trim(), new RegExp(variable))
      assert.equal(result.stderr.trim().split('\n').length, 1)
    })
  }
})
