import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { STORE_KINDS } from '../support/databases.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'
import { type RawResponse, rawRequest } from './helpers/raw-http.js'

const RUNS = 5_000

interface FuzzRequest {
  method: string
  path: string
  query: string
  authorization: number
  contentType: string | null
  headers: [string, string][]
  body: Buffer | null
}

const noLineBreaks = (text: string) => text.replace(/[\r\n]/g, '')
const int64Literal = fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String)
const numberLiteral = fc.oneof(
  int64Literal,
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom('1.0', '1e3', '-0', '0x10', '1e400', '9'.repeat(400), '-9223372036854775809', '9223372036854775807'),
)
const segment = fc.oneof(
  int64Literal,
  fc.string({ maxLength: 20 }).map(encodeURIComponent),
  fc.constantFrom('%zz', '%', '..', '%00', '%C0%AF', 'plants', '', '9'.repeat(100)),
)
const path = fc.oneof(
  fc.constant('/plants'),
  segment.map((id) => `/plants/${id}`),
  fc.array(segment, { maxLength: 4 }).map((parts) => `/${parts.join('/')}`),
  fc.constantFrom('/healthz', '/readyz', '/metrics', '/openapi.json', '/plants/', '//plants', '/PLANTS', '/plants/1/x'),
)
const query = fc.oneof(
  fc.constant(''),
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom('limit', 'after', 'tag'), fc.string({ maxLength: 8 }).map(encodeURIComponent)),
        fc.oneof(numberLiteral, fc.string({ maxLength: 30 }).map(encodeURIComponent), fc.constantFrom('', '%zz', '%FF')),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => `?${pairs.map(([key, value]) => `${key}=${value}`).join('&')}`),
)
const jsonText = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        id: numberLiteral,
        name: fc.oneof(fc.string({ maxLength: 220 }), fc.integer(), fc.constant(null)),
        tag: fc.oneof(fc.string({ maxLength: 110 }), fc.constant(null)),
      },
      { requiredKeys: [] },
    )
    .map(({ id, name, tag }) => {
      const fields = [
        id === undefined ? null : `"id":${id}`,
        name === undefined ? null : `"name":${JSON.stringify(name)}`,
        tag === undefined ? null : `"tag":${JSON.stringify(tag)}`,
      ]
      return `{${fields.filter(Boolean).join(',')}}`
    }),
  fc.nat(20_000).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.constantFrom(
    '{"id":1,"id":2,"name":"twice"}',
    '{"__proto__":{"admin":true},"id":77,"name":"proto"}',
    '{"constructor":{"prototype":{"x":1}},"id":78,"name":"ctor"}',
    '{"id":79,"name":"x"} trailing',
    '',
    'null',
  ),
)
const body = fc.oneof(
  fc.constant(null),
  jsonText.map((text) => Buffer.from(text, 'utf8')),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
  fc.constant(Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
)
const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'FOO'),
  path,
  query,
  authorization: fc.nat(5),
  contentType: fc.oneof(
    fc.constant(null),
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/json; charset=latin1',
      'multipart/form-data',
    ),
    fc.string({ maxLength: 30 }).map(noLineBreaks),
  ),
  headers: fc.array(fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/), fc.string({ maxLength: 40 }).map(noLineBreaks)), {
    maxLength: 3,
  }),
  body,
})

for (const kind of STORE_KINDS) {
  describe(`fuzzing the service on ${kind}`, () => {
    let fx: ServiceFixture
    let authorizations: (string | null)[]
    before(async () => {
      fx = await startFixture(kind)
      const [writer, reader] = await Promise.all([fx.token('fuzz-writer'), fx.token('fuzz-reader', '--scope', 'plants:read')])
      authorizations = [null, `Bearer ${writer}`, `Bearer ${reader}`, `Bearer ${fx.adminToken}`, 'Bearer pst_garbage', `Basic ${writer}`]
      for (const id of [1, 2, 3]) await fx.api.createPlant(writer, { id, name: `seed ${id}` })
    })
    after(() => fx.close())

    test(`${RUNS} generated requests: no 5xx, every error is an Error body, and only acknowledged writes change the data`, async () => {
      const expected = new Map<bigint, string>([
        [1n, 'seed 1'],
        [2n, 'seed 2'],
        [3n, 'seed 3'],
      ])
      const statuses = new Map<number, number>()
      let sent = 0
      let serverErrors = 0
      await fc.assert(
        fc.asyncProperty(fuzzRequest, async (request) => {
          const lines = [`${request.method} ${request.path}${request.query} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close']
          const authorization = authorizations[request.authorization]
          if (authorization) lines.push(`Authorization: ${authorization}`)
          if (request.contentType !== null) lines.push(`Content-Type: ${request.contentType}`)
          for (const [name, value] of request.headers) lines.push(`${name}: ${value}`)
          if (request.body !== null) lines.push(`Content-Length: ${request.body.length}`)
          const bytes = Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), request.body ?? Buffer.alloc(0)])
          const response: RawResponse = await rawRequest(fx.service.url, bytes, request.method)
          sent += 1
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
          if (response.status >= 500) serverErrors += 1
          assert.ok(
            response.status >= 200 && response.status < 500,
            `${request.method} ${request.path}${request.query} → ${response.status} ${response.body}`,
          )
          if (response.status >= 400 && request.method !== 'HEAD') {
            assert.match(response.headers['content-type'] ?? '', /^application\/json/)
            const error = JSON.parse(response.body) as Record<string, unknown>
            assert.deepEqual(Object.keys(error).sort(), ['error', 'message'])
            assert.equal(error.error, response.status)
            assert.equal(typeof error.message, 'string')
          }
          if (request.method === 'POST' && response.status === 200) {
            const id = BigInt((response.headers.location ?? '').slice('/plants/'.length))
            expected.set(id, (JSON.parse(response.body) as { name: string }).name)
          }
          if (request.method === 'PATCH' && response.status === 200) {
            expected.set(
              BigInt(decodeURIComponent(request.path.slice('/plants/'.length))),
              (JSON.parse(response.body) as { name: string }).name,
            )
          }
          if (request.method === 'DELETE' && response.status === 204) {
            expected.delete(BigInt(decodeURIComponent(request.path.slice('/plants/'.length))))
          }
        }),
        { numRuns: RUNS, endOnFailure: true },
      )
      console.log(
        `fuzz on ${kind}: ${sent} requests, ${serverErrors} server errors; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
      )
      assert.equal((await fx.api.request('GET', '/healthz')).status, 200, 'the service is still up')
      const stored = await fx.api.listPlants(fx.adminToken)
      const want = [...expected.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, name]) => name)
      assert.deepEqual(
        stored.map((plant) => plant.name),
        want,
        'the data changed only by acknowledged writes',
      )
    })
  })
}
