import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'
import { rawRequest } from './helpers/raw-http.js'
import { STORE_KINDS } from '../support/databases.js'

function assertErrorBody(body: string, status: number): { error: number; message: string } {
  const parsed = JSON.parse(body) as { error: number; message: string }
  assert.deepEqual(Object.keys(parsed).sort(), ['error', 'message'])
  assert.equal(parsed.error, status)
  assert.equal(typeof parsed.message, 'string')
  assert.ok(parsed.message.length > 0)
  assert.doesNotMatch(parsed.message, /at .*\.js|node_modules|SQLITE|SELECT|\/work\//)
  return parsed
}

for (const kind of STORE_KINDS) {
  describe(`errors on every path, on ${kind}`, () => {
    let fx: ServiceFixture
    before(async () => {
      fx = await startFixture(kind)
    })
    after(() => fx.close())

    test('an unknown route is a 404 Error, with or without a token', async () => {
      for (const token of [undefined, fx.adminToken]) {
        const response = await fx.api.request('GET', '/no/such/route', token === undefined ? {} : { token })
        assert.equal(response.status, 404)
      }
      assert.equal((await fx.api.request('GET', '/plants/1/leaves', { token: fx.adminToken })).status, 404)
    })

    const wrongMethods: [string, string, string][] = [
      ['PUT', '/plants', 'GET, HEAD, POST'],
      ['PATCH', '/plants', 'GET, HEAD, POST'],
      ['DELETE', '/plants', 'GET, HEAD, POST'],
      ['POST', '/plants/7', 'GET, HEAD, PATCH, DELETE'],
      ['PUT', '/plants/7', 'GET, HEAD, PATCH, DELETE'],
      ['OPTIONS', '/plants/7', 'GET, HEAD, PATCH, DELETE'],
      ['POST', '/healthz', 'GET, HEAD'],
      ['DELETE', '/metrics', 'GET, HEAD'],
    ]
    for (const [method, path, allow] of wrongMethods) {
      test(`${method} ${path} is a 405 with Allow: ${allow}`, async () => {
        const response = await fx.api.request(method, path, { token: fx.adminToken })
        assert.equal(response.status, 405)
        assert.equal(response.headers.get('allow'), allow)
      })
    }

    test('a bad percent-encoding in the URL is a 400 Error', async () => {
      const response = await fx.api.request('GET', '/plants/%zz', { token: fx.adminToken })
      assert.equal(response.status, 400)
    })

    test('a path segment over 100 characters is an id that cannot exist: 405 and 401 first, then a 400 that says what is wrong', async () => {
      const longId = '1'.repeat(101)
      const put = await fx.api.request('PUT', `/plants/${longId}`, { token: fx.adminToken })
      assert.deepEqual([put.status, put.headers.get('allow')], [405, 'GET, HEAD, PATCH, DELETE'])
      assert.equal((await fx.api.request('GET', `/plants/${longId}`)).status, 401)
      for (const path of [`/plants/${longId}`, `/plants/-${longId}`, `/webhooks/${'w'.repeat(101)}`]) {
        const read = await fx.api.request('GET', path, { token: fx.adminToken })
        const { message } = assertErrorBody(read.text, 400)
        assert.equal(read.status, 400, path)
        assert.doesNotMatch(message, /percent-encoding/, path)
        assert.match(message, /\bid\b/, `${path}: the message is about the id: ${message}`)
      }
    })

    const malformed: [string, string, number][] = [
      ['a garbled request line', 'GARBAGE\r\n\r\n', 400],
      ['a header line without a colon', 'GET /plants HTTP/1.1\r\nHost: x\r\nBroken header\r\n\r\n', 400],
      ['a bad HTTP version', 'GET /plants HTTP/9.9\r\nHost: x\r\n\r\n', 400],
      ['headers over 16 KiB', `GET /plants HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['a Content-Length that is not a number', 'POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n', 400],
    ]
    for (const [what, bytes, status] of malformed) {
      test(`${what}, refused by the HTTP layer, still gets a JSON Error ${status}`, async () => {
        const response = await rawRequest(fx.service.url, bytes)
        assert.equal(response.status, status)
        assert.match(response.headers['content-type'] ?? '', /^application\/json/)
        assert.ok(response.headers['x-request-id'])
        assertErrorBody(response.body, status)
      })
    }

    test('the service still answers after every malformed request', async () => {
      assert.equal((await fx.api.request('GET', '/healthz')).status, 200)
    })

    describe('X-Request-Id', () => {
      test('a valid request id is echoed, on success and on error', async () => {
        for (const path of ['/healthz', '/plants', '/nowhere']) {
          const response = await fx.api.request('GET', path, { headers: { 'x-request-id': 'trace-42 abc' } })
          assert.equal(response.headers.get('x-request-id'), 'trace-42 abc', path)
        }
      })

      test('a missing, too long or non-printable request id is replaced by a generated one', async () => {
        const generated = (await fx.api.request('GET', '/healthz')).headers.get('x-request-id')
        assert.match(generated ?? '', /^[\x21-\x7e]{8,128}$/)
        const long = await fx.api.request('GET', '/healthz', { headers: { 'x-request-id': 'x'.repeat(129) } })
        assert.notEqual(long.headers.get('x-request-id'), 'x'.repeat(129))
        assert.match(long.headers.get('x-request-id') ?? '', /^\S{8,128}$/)
        const exact = await fx.api.request('GET', '/healthz', { headers: { 'x-request-id': 'y'.repeat(128) } })
        assert.equal(exact.headers.get('x-request-id'), 'y'.repeat(128))
        const raw = await rawRequest(
          fx.service.url,
          Buffer.from('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: caf\xe9\r\nConnection: close\r\n\r\n', 'latin1'),
        )
        assert.equal(raw.status, 200)
        assert.notEqual(raw.headers['x-request-id'], 'caf\xe9')
        assert.match(raw.headers['x-request-id'] ?? '', /^[\x21-\x7e]{8,128}$/)
      })

      test('distinct requests without an id get distinct ids', async () => {
        const ids = await Promise.all(
          Array.from({ length: 5 }, async () => (await fx.api.request('GET', '/healthz')).headers.get('x-request-id')),
        )
        assert.equal(new Set(ids).size, 5)
      })
    })
  })
}
