import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'
import { withFixture } from './helpers/in-process.js'
import { type RawResponse, rawRequest } from './helpers/raw-http.js'

interface Operation {
  responses: Record<string, unknown>
}

/** Each operation of the served document as method, a URL for it (every parameter 1) and its declared statuses. */
async function operations(base: string): Promise<{ name: string; method: string; url: string; statuses: string[] }[]> {
  const document = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> }
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      url: path.replace(/\{[^}]+\}/g, '1'),
      statuses: Object.keys(operation.responses),
    })),
  )
}

const assertJsonError = (answer: RawResponse, status: number, name: string) => {
  assert.equal(answer.status, status, `${name}: ${answer.status} ${answer.body}`)
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/, name)
  assert.equal((JSON.parse(answer.body) as { error: number }).error, status, name)
}

describe('the document declares the statuses the HTTP layer sends, on every operation', () => {
  let fx: ServiceFixture
  before(async () => {
    fx = await startFixture('sqlite')
  })
  after(async () => {
    await fx.close()
  })

  test('an HTTP/1.1 request without Host is a 400 on every operation, and every operation declares 400', async () => {
    const all = await operations(fx.service.url)
    assert.ok(all.length >= 15, `the operations are found: ${all.length}`)
    for (const { name, method, url, statuses } of all) {
      const answer = await rawRequest(fx.service.url, `${method} ${url} HTTP/1.1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, method)
      assertJsonError(answer, 400, name)
      assert.ok(statuses.includes('400'), `${name} declares 400: ${statuses.join(', ')}`)
    }
  })

  test('an Expect other than 100-continue is a 417 on every operation, and every operation declares 417', async () => {
    for (const { name, method, url, statuses } of await operations(fx.service.url)) {
      const answer = await rawRequest(
        fx.service.url,
        `${method} ${url} HTTP/1.1\r\nHost: x\r\nExpect: a-miracle\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
        method,
      )
      assertJsonError(answer, 417, name)
      assert.ok(statuses.includes('417'), `${name} declares 417: ${statuses.join(', ')}`)
    }
  })
})

describe('OPTIONS on a path that does not exist', () => {
  for (const [setting, env] of [
    ['with CORS_ORIGINS set', { CORS_ORIGINS: 'https://app.example.com' }],
    ['with CORS off', {}],
  ] as const) {
    test(`${setting} is a 404 JSON Error, offering no methods; a known path still answers its preflight`, async () => {
      await withFixture(env, async (fx) => {
        const headers = { origin: 'https://app.example.com', 'access-control-request-method': 'POST' }
        const unknown = await fx.app.inject({ method: 'OPTIONS', url: '/nowhere/at/all', headers })
        assert.equal(unknown.statusCode, 404, unknown.body)
        assert.deepEqual(unknown.json(), { error: 404, message: 'no route for OPTIONS /nowhere/at/all' })
        assert.equal(unknown.headers['access-control-allow-methods'], undefined)
        const known = await fx.app.inject({ method: 'OPTIONS', url: '/plants/7', headers })
        assert.equal(known.statusCode, 'CORS_ORIGINS' in env ? 204 : 405, known.body)
      })
    })
  }
})

describe('the document declares every condition header and the statuses it brings', () => {
  // [operation, request header, statuses it can bring]: the conditions of issue 60's review.
  const DECLARED: [string, string, string, string[]][] = [
    ['get', '/plants/{id}', 'if-match', ['400', '412']],
    ['get', '/plants/{id}', 'if-none-match', ['304', '400']],
    ['post', '/plants', 'if-match', ['400', '412']],
    ['post', '/plants', 'if-none-match', ['400', '412']],
    ['get', '/plants', 'if-match', ['400', '412']],
    ['get', '/plants', 'if-none-match', ['304', '400']],
    ['patch', '/webhooks/{id}', 'if-match', ['400']],
    ['patch', '/webhooks/{id}', 'if-none-match', ['400']],
    ['delete', '/webhooks/{id}', 'if-match', ['400']],
    ['delete', '/webhooks/{id}', 'if-none-match', ['400']],
  ]

  test('each operation declares the header and each status', async () => {
    await withFixture({}, async (fx) => {
      const document = (await fx.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
        paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>
      }>()
      for (const [method, path, header, statuses] of DECLARED) {
        const operation = document.paths[path]?.[method]
        assert.ok(operation, `${method} ${path} exists`)
        const headers = (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'header')
          .map((parameter) => parameter.name.toLowerCase())
        assert.ok(headers.includes(header), `${method.toUpperCase()} ${path} declares ${header}: ${headers.join(', ')}`)
        for (const status of statuses) {
          assert.ok(status in operation.responses, `${method.toUpperCase()} ${path} declares ${status} for ${header}`)
        }
      }
    })
  })
})
