import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { withFixture } from './helpers/in-process.js'

// CORS_ORIGINS, on and off: what a browser on another origin may do.

describe('CORS_ORIGINS', () => {
  const origin = 'https://app.example.com'

  test('a preflight from a listed origin is answered 204 with the methods and headers the API takes', async () => {
    await withFixture({ CORS_ORIGINS: `${origin},https://other.example.com` }, async (fx) => {
      const response = await fx.app.inject({
        method: 'OPTIONS',
        url: '/plants',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,idempotency-key' },
      })
      assert.equal(response.statusCode, 204)
      assert.equal(response.headers['access-control-allow-origin'], origin)
      for (const method of ['GET', 'POST', 'PATCH', 'DELETE'])
        assert.match(String(response.headers['access-control-allow-methods']), new RegExp(method))
      for (const header of ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'If-None-Match', 'X-Request-Id']) {
        assert.match(String(response.headers['access-control-allow-headers']), new RegExp(header))
      }
      assert.equal(response.headers['access-control-allow-credentials'], undefined)
    })
  })

  test('answers to a listed origin, errors included, expose Location, Link, X-Request-Id, Retry-After and the RateLimit headers', async () => {
    await withFixture({ CORS_ORIGINS: origin }, async (fx) => {
      const token = await fx.token('browser')
      const created = await fx.api.request('POST', '/plants', { token, json: '{"id":1,"name":"From a browser"}', headers: { origin } })
      assert.equal(created.status, 200)
      assert.equal(created.headers.get('access-control-allow-origin'), origin)
      const exposed = created.headers.get('access-control-expose-headers') ?? ''
      for (const header of [
        'Location',
        'ETag',
        'Link',
        'X-Request-Id',
        'Retry-After',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
      ]) {
        assert.match(exposed, new RegExp(header))
      }
      const unauthorized = await fx.api.request('GET', '/plants', { headers: { origin } })
      assert.equal(unauthorized.status, 401)
      assert.equal(unauthorized.headers.get('access-control-allow-origin'), origin)
    })
  })

  test('an origin not listed gets no Access-Control-Allow-Origin', async () => {
    await withFixture({ CORS_ORIGINS: origin }, async (fx) => {
      const response = await fx.app.inject({ method: 'GET', url: '/healthz', headers: { origin: 'https://evil.example.com' } })
      assert.equal(response.headers['access-control-allow-origin'], undefined)
    })
  })

  test('* lets any origin call, still without credentials', async () => {
    await withFixture({ CORS_ORIGINS: '*' }, async (fx) => {
      const response = await fx.app.inject({ method: 'GET', url: '/healthz', headers: { origin: 'https://anyone.example' } })
      assert.equal(response.headers['access-control-allow-origin'], '*')
      assert.equal(response.headers['access-control-allow-credentials'], undefined)
    })
  })

  test('unset, no answer carries an Access-Control header, and OPTIONS stays a 405', async () => {
    await withFixture({}, async (fx) => {
      const response = await fx.app.inject({
        method: 'OPTIONS',
        url: '/plants',
        headers: { origin, 'access-control-request-method': 'POST' },
      })
      assert.equal(response.statusCode, 405)
      assert.deepEqual(
        Object.keys(response.headers).filter((name) => name.startsWith('access-control-')),
        [],
      )
    })
  })
  test('an OPTIONS without Access-Control-Request-Method gets no text/plain error', async () => {
    await withFixture({ CORS_ORIGINS: origin }, async (fx) => {
      const response = await fx.app.inject({ method: 'OPTIONS', url: '/plants', headers: { origin } })
      assert.ok(response.statusCode < 400 || /^application\/json/.test(String(response.headers['content-type'])), `${response.statusCode}`)
    })
  })

  test('off: no Access-Control-Allow-Origin on an answer, and a preflight is a 405', async () => {
    await withFixture({}, async (fx) => {
      const simple = await fx.api.request('GET', '/plants', { token: fx.adminToken, headers: { origin: 'https://evil.example' } })
      assert.equal(simple.status, 200)
      assert.equal(simple.headers.get('access-control-allow-origin'), null)
      const preflight = await fx.api.request('OPTIONS', '/plants', {
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'DELETE' },
      })
      assert.equal(preflight.status, 405)
      assert.equal(preflight.headers.get('access-control-allow-origin'), null)
    })
  })
})
