import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer } from 'node:http'
import { connect } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { generateKeyPairSync } from 'node:crypto'
import { SignJWT, exportJWK, generateKeyPair } from 'jose'
import { POSTGRES_UNAVAILABLE, STORE_KINDS, freshDatabase } from '../support/databases.js'
import { makeToken, startService } from '../support/service.js'
import { Api } from './helpers/api.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'
import { AUDIENCE } from './helpers/identity-provider.js'

// Every answer keeps the contract, whatever a hostile client sends: no 500 from input, the
// method judged before the body, the JSON Error on every path.

const MANAGE = ['--scope', 'plants:read,plants:write,webhooks:manage']

/** One raw HTTP exchange: what the service answers to exactly these bytes. */
async function rawExchange(url: string, request: string): Promise<string> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1')
  let answer = ''
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk))
  socket.on('error', () => {})
  socket.end(request)
  await once(socket, 'close')
  return answer
}

/** Status, headers (lower-cased names) and JSON body of a raw answer. */
function parsed(answer: string): { status: number; headers: Record<string, string>; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n')
  const [statusLine = '', ...lines] = head.split('\r\n')
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  )
  return { status: Number(statusLine.split(' ')[1]), headers, body: body === '' ? null : JSON.parse(body) }
}

for (const kind of STORE_KINDS) {
  describe(`untrusted text never gets a 500, on ${kind}`, () => {
    let fx: InProcessFixture
    let token: string
    let subscription: string
    before(async () => {
      fx = await buildFixture(kind, { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' })
      token = await fx.token('nul', ...MANAGE)
      const made = await fx.api.request<{ id: string }>('POST', '/webhooks', { token, json: { url: 'http://127.0.0.1:9/hook' } })
      subscription = made.body.id
    })
    after(async () => {
      await fx.close()
    })

    const cases: [string, string, unknown, number][] = [
      ['GET', '/plants?tag=%00', undefined, 400],
      ['GET', '/webhooks/wh%00', undefined, 404],
      ['DELETE', '/webhooks/wh%00', undefined, 404],
      ['PATCH', '/webhooks/wh%00', { enabled: true }, 404],
      ['POST', '/webhooks/wh%00/ping', undefined, 404],
      ['POST', '/webhooks/wh%00/recover', { since: '2026-01-01T00:00:00Z' }, 404],
      ['POST', '/webhooks/wh%00/rotate-secret', undefined, 404],
      ['GET', '/webhooks/wh%00/deliveries', undefined, 404],
      ['POST', '/webhooks', { url: 'http://127.0.0.1:9/a\u0000b' }, 400],
    ]
    for (const [method, path, json, status] of cases) {
      test(`${method} ${path.replace('%00', '%00')} with U+0000 answers ${status}`, async () => {
        const answer = await fx.api.request(method, path, { token, ...(json === undefined ? {} : { json: json as object }) })
        assert.equal(answer.status, status, answer.text)
      })
    }

    test('a redeliver of a webhook-id holding U+0000 answers 404', async () => {
      const answer = await fx.api.request('POST', `/webhooks/${subscription}/deliveries/msg%00/redeliver`, { token })
      assert.equal(answer.status, 404, answer.text)
    })
  })

  describe(`a wrong method is 405 with Allow whatever the body, on ${kind}`, () => {
    let fx: InProcessFixture
    before(async () => {
      fx = await buildFixture(kind)
    })
    after(async () => {
      await fx.close()
    })

    const cases: [string, string, Record<string, string>, string | Buffer | undefined][] = [
      ['PUT', '/plants', { 'content-type': 'text/plain' }, 'hello'],
      ['POST', '/healthz', { 'content-type': 'text/plain' }, 'hello'],
      ['PUT', '/plants', { 'content-type': 'application/json' }, '{"id":'],
      ['PUT', '/plants/1', { 'content-type': 'application/json' }, `{"name":"${'x'.repeat(20 * 1024)}"}`],
      ['PATCH', '/plants', { 'content-type': 'application/merge-patch+json' }, '{"name":'],
      ['TRACE', '/plants', {}, undefined],
      ['TRACE', '/healthz', {}, undefined],
      ['POST', '/docs', { 'content-type': 'text/plain' }, 'hello'],
    ]
    for (const [method, url, headers, payload] of cases) {
      test(`${method} ${url} ${payload === undefined ? 'without a body' : `with ${headers['content-type']}`}`, async () => {
        const answer = await fx.app.inject({ method: method as 'PUT', url, headers, ...(payload === undefined ? {} : { payload }) })
        assert.equal(answer.statusCode, 405, answer.body)
        assert.ok(answer.headers.allow, 'an Allow header')
        assert.equal(answer.json<{ error: number }>().error, 405)
      })
    }
  })

  describe(`scopes in an scp string (as Entra ID sends them), on ${kind}`, () => {
    let jwks: Jwks
    let fx: InProcessFixture
    before(async () => {
      jwks = await startJwks()
      fx = await buildFixture(kind, { JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_URL: jwks.url })
    })
    after(async () => {
      await fx.close()
      await jwks.stop()
    })

    test('"scp": "plants:read plants:write" grants both', async () => {
      const token = await jwks.sign({ sub: 'entra-app', scp: 'plants:read plants:write' })
      assert.equal((await fx.api.request('GET', '/plants', { token })).status, 200)
      assert.equal((await fx.api.createPlant(token, { id: 1n, name: 'entra' })).status, 200)
    })
  })
}

const ISSUER = 'https://issuer.test'

interface Jwks {
  url: string
  sign(claims: Record<string, unknown>): Promise<string>
  stop(): Promise<void>
}

/** A provider's JWKS on 127.0.0.1 with one ES256 key (and `extra` keys), and tokens signed with that key. */
async function startJwks(extra: object[] = []): Promise<Jwks> {
  const { publicKey, privateKey } = await generateKeyPair('ES256')
  const keys = [{ ...(await exportJWK(publicKey)), kid: 'good', alg: 'ES256', use: 'sig' }, ...extra]
  const server = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys })),
  )
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/jwks`,
    sign: (claims) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'ES256', kid: 'good', typ: 'at+jwt' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setExpirationTime('5m')
        .sign(privateKey),
    stop: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}

describe('a provider that publishes an RSA key under 2048 bits', () => {
  let jwks: Jwks
  let fx: InProcessFixture
  before(async () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 })
    jwks = await startJwks([{ ...(await exportJWK(publicKey)), kid: 'weak', alg: 'RS256', use: 'sig' }])
    fx = await buildFixture('sqlite', { JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_JWKS_URL: jwks.url })
  })
  after(async () => {
    await fx.close()
    await jwks.stop()
  })

  test('a JWT naming its kid, with any signature, is 401 invalid_token, and the key is warned about once', async () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const header = part({ alg: 'RS256', kid: 'weak', typ: 'at+jwt' })
    const claims = part({ iss: ISSUER, aud: AUDIENCE, sub: 'mallory', exp: Math.floor(Date.now() / 1000) + 600 })
    for (let i = 0; i < 3; i++) {
      const token = `${header}.${claims}.${Buffer.from(`not a signature ${i}`).toString('base64url')}`
      const answer = await fx.api.request('GET', '/plants', { token })
      assert.equal(answer.status, 401, answer.text)
      assert.match(answer.headers.get('www-authenticate') ?? '', /error="invalid_token"/)
    }
    const warned = fx
      .logs()
      .split('\n')
      .filter((line) => line.includes('cannot be used'))
    assert.equal(warned.length, 1)
    assert.match(warned[0] ?? '', /"kid":"weak"/)
    // The good key of the same JWKS still works: the weak one did not make the provider look down.
    assert.equal((await fx.api.request('GET', '/plants', { token: await jwks.sign({ sub: 'alice', scope: 'plants:read' }) })).status, 200)
  })

  test('a JWT whose subject holds U+0000 is 401, not a 500', async () => {
    const token = await jwks.sign({ sub: 'eve\u0000', scope: 'plants:read' })
    assert.equal((await fx.api.request('GET', '/plants', { token })).status, 401)
  })
})

describe('answers the HTTP layer gives itself', () => {
  let fx: ServiceFixture
  before(async () => {
    fx = await startFixture('sqlite', { CORS_ORIGINS: 'https://app.example.com' })
  })
  after(async () => {
    await fx.close()
  })

  const jsonError = (answer: string, status: number) => {
    const { status: got, headers, body } = parsed(answer)
    assert.equal(got, status, answer)
    assert.match(headers['content-type'] ?? '', /^application\/json/)
    assert.equal(headers['x-content-type-options'], 'nosniff')
    assert.ok(headers['x-request-id'], 'an X-Request-Id')
    assert.equal((body as { error: number }).error, status)
    return headers
  }

  test('Expect: foo is 417 with the JSON Error', async () => {
    jsonError(await rawExchange(fx.service.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nConnection: close\r\n\r\n'), 417)
  })

  test('an HTTP/1.1 request without Host is 400 with the JSON Error', async () => {
    jsonError(await rawExchange(fx.service.url, 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n'), 400)
  })

  test('CONNECT /plants is 405 with Allow and the JSON Error', async () => {
    const headers = jsonError(await rawExchange(fx.service.url, 'CONNECT /plants HTTP/1.1\r\nHost: x\r\n\r\n'), 405)
    assert.match(headers.allow ?? '', /GET/)
  })
})

/** Four replays of one key, 200 ms after the first create committed, spread over `apis`. */
async function overlappingReplays(apis: Api[], token: string): Promise<void> {
  const request = { token, json: '{"id":4242,"name":"once"}', headers: { 'idempotency-key': 'replayed-together' } }
  const first = await apis[0]!.request('POST', '/plants', request)
  assert.equal(first.status, 200, first.text)
  await new Promise((resolve) => setTimeout(resolve, 200))
  const replays = await Promise.all(Array.from({ length: 4 }, (_, i) => apis[i % apis.length]!.request('POST', '/plants', request)))
  for (const replay of replays) {
    assert.equal(replay.status, 200, replay.text)
    assert.equal(replay.headers.get('idempotent-replayed'), 'true')
  }
}

for (const kind of STORE_KINDS) {
  test(`overlapping replays of a committed keyed create all get the kept answer, on ${kind}`, async () => {
    const fx = await buildFixture(kind)
    try {
      await overlappingReplays([fx.api], await fx.token('replayer'))
    } finally {
      await fx.close()
    }
  })
}

describe('overlapping replays across two instances, on postgres', { skip: POSTGRES_UNAVAILABLE ?? false }, () => {
  test('all get the kept answer with Idempotent-Replayed: true', async () => {
    const db = await freshDatabase('postgres')
    const [one, two] = await Promise.all([startService({ DATABASE_URL: db.url }), startService({ DATABASE_URL: db.url })])
    try {
      await overlappingReplays([await Api.connect(one.url), await Api.connect(two.url)], await makeToken(db.url, 'replayer'))
    } finally {
      await Promise.all([one.stop(), two.stop()])
      await db.drop()
    }
  })
})
