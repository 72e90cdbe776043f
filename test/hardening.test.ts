import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { Redis } from 'ioredis'
import { Api } from './helpers/api.js'
import { POSTGRES_UNAVAILABLE, STORE_KINDS, freshDatabase } from '../support/databases.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'
import { makeToken, startService } from '../support/service.js'

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/7'

// A missing Redis refuses at once; a busy machine may take seconds to answer one that is there.
async function redisReason(): Promise<string | null> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 30_000, maxRetriesPerRequest: 0 })
  try {
    await redis.connect()
    await redis.ping()
    return null
  } catch (error) {
    return (error as Error).message
  } finally {
    redis.disconnect()
  }
}
const REDIS_UNAVAILABLE = await redisReason()

for (const kind of STORE_KINDS) {
  describe(`response headers on ${kind}`, () => {
    let fx: ServiceFixture
    before(async () => {
      fx = await startFixture(kind)
    })
    after(() => fx.close())

    test('authenticated answers, errors included, say Cache-Control: no-store', async () => {
      for (const token of [fx.adminToken, undefined, 'pst_wrong']) {
        const response = await fx.api.request('GET', '/plants', token === undefined ? {} : { token })
        assert.equal(response.headers.get('cache-control'), 'no-store', `token ${token}`)
      }
    })

    test('every answer says X-Content-Type-Options: nosniff and none says X-Powered-By', async () => {
      for (const [method, path] of [
        ['GET', '/healthz'],
        ['GET', '/nowhere'],
        ['PUT', '/plants'],
        ['GET', '/plants'],
        ['GET', '/plants/%zz'],
      ]) {
        const response = await fx.api.request(method as string, path as string, { token: fx.adminToken })
        assert.equal(response.headers.get('x-content-type-options'), 'nosniff', `${method} ${path}`)
        assert.equal(response.headers.get('x-powered-by'), null)
      }
    })
  })
}

describe('connection limits (REQUEST_TIMEOUT_MS=1000, KEEP_ALIVE_TIMEOUT_MS=500)', () => {
  let fx: ServiceFixture
  before(async () => {
    fx = await startFixture('sqlite', { REQUEST_TIMEOUT_MS: '1000', KEEP_ALIVE_TIMEOUT_MS: '500' })
  })
  after(() => fx.close())

  const port = () => Number(new URL(fx.service.url).port)

  test('a client that never finishes its headers is answered 408 and cut off', async () => {
    const socket = connect(port(), '127.0.0.1')
    let answer = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk))
    const started = Date.now()
    const closed = new Promise((resolve) => socket.on('close', resolve))
    socket.write('GET /plants HTTP/1.1\r\nHost: x\r\n')
    const trickle = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 200)
    await closed
    clearInterval(trickle)
    const took = Date.now() - started
    assert.ok(took < 4000, `cut off after ${took} ms`)
    assert.match(answer, /^HTTP\/1.1 408 /)
    assert.match(answer, /"error":408/)
  })

  test('a client that never finishes its body is cut off', async () => {
    const socket = connect(port(), '127.0.0.1')
    const started = Date.now()
    const closed = new Promise((resolve) => socket.on('close', resolve))
    socket.on('error', () => {})
    socket.resume()
    socket.write(
      `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${fx.adminToken}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"id":`,
    )
    await closed
    assert.ok(Date.now() - started < 4000, `cut off after ${Date.now() - started} ms`)
  })

  test('an idle keep-alive connection is closed by the server', async () => {
    const socket = connect(port(), '127.0.0.1')
    let answer = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk))
    const closed = new Promise((resolve) => socket.on('close', resolve))
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
    const started = Date.now()
    await closed
    assert.match(answer, /^HTTP\/1.1 200 /)
    assert.ok(Date.now() - started < 3000, `closed after ${Date.now() - started} ms`)
  })
})

const redisSkip =
  POSTGRES_UNAVAILABLE !== null
    ? `no PostgreSQL (${POSTGRES_UNAVAILABLE})`
    : REDIS_UNAVAILABLE !== null && process.env.CI !== 'true'
      ? `no Redis at ${REDIS_URL} (${REDIS_UNAVAILABLE}); set TEST_REDIS_URL to run it`
      : false

describe('RATE_LIMIT=5 shared through Redis by two instances on PostgreSQL', { skip: redisSkip }, () => {
  test('the sixth request of a token, whichever instance gets it, is a 429', async () => {
    assert.equal(REDIS_UNAVAILABLE, null, `Redis is needed in CI: ${REDIS_UNAVAILABLE}`)
    const db = await freshDatabase('postgres')
    const env = { DATABASE_URL: db.url, RATE_LIMIT: '5', REDIS_URL }
    const [one, two] = await Promise.all([startService(env), startService(env)])
    try {
      const token = await makeToken(db.url, `limited-${Date.now()}`)
      const apis = await Promise.all([Api.connect(one.url), Api.connect(two.url)])
      const statuses: number[] = []
      for (let i = 0; i < 6; i++) statuses.push((await (apis[i % 2] as Api).request('GET', '/plants', { token })).status)
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429])
    } finally {
      await Promise.all([one.stop(), two.stop()])
      await db.drop()
    }
  })
})
