import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'
import { STORE_KINDS } from '../support/databases.js'

for (const kind of STORE_KINDS) {
  describe(`operations endpoints, without a token, on ${kind}`, () => {
    let fx: ServiceFixture
    before(async () => {
      fx = await startFixture(kind)
    })
    after(() => fx.close())

    test('GET /healthz answers 200 while the process is up', async () => {
      const response = await fx.api.request('GET', '/healthz')
      assert.equal(response.status, 200)
      assert.deepEqual(response.body, { status: 'ok' })
    })

    test('each request writes one log line with its id, method, URL, client address, status and time', async () => {
      const answer = await fx.api.request('GET', '/healthz?probe=log-line', { headers: { 'x-request-id': 'log-line-probe' } })
      assert.equal(answer.status, 200)
      const log = await fx.service.waitForLog((stdout) => stdout.includes('"reqId":"log-line-probe"'))
      const lines = log
        .split('\n')
        .filter((line) => line.includes('log-line-probe'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      assert.equal(lines.length, 1)
      assert.deepEqual(
        { ...lines[0], time: undefined, pid: undefined, hostname: undefined, responseTime: undefined },
        {
          level: 30,
          reqId: 'log-line-probe',
          method: 'GET',
          url: '/healthz?probe=log-line',
          remoteAddress: '127.0.0.1',
          statusCode: 200,
          msg: 'request completed',
          time: undefined,
          pid: undefined,
          hostname: undefined,
          responseTime: undefined,
        },
      )
      assert.equal(typeof lines[0]?.responseTime, 'number')
    })

    test('GET /readyz answers 200 when the database answers', async () => {
      const response = await fx.api.request('GET', '/readyz')
      assert.equal(response.status, 200)
      assert.deepEqual(response.body, { status: 'ready' })
    })

    test('GET /metrics counts requests by route pattern and status, with a latency histogram', async () => {
      // Nineteen digits and no zero: no number a metric prints can contain it (at most 17 significant digits,
      // then zeros), so it shows up only if the id itself became a label value. "12345" once matched a CPU time.
      const probeId = '4242424242424242424'
      await fx.api.request('GET', `/plants/${probeId}`, { token: fx.adminToken })
      await fx.api.request('GET', '/plants')
      const response = await fx.api.request<string>('GET', '/metrics')
      assert.equal(response.status, 200)
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain/)
      assert.match(response.body, /http_requests_total\{method="GET",route="\/plants\/:id",status_code="404"\} 1/)
      assert.match(response.body, /http_requests_total\{method="GET",route="\/plants",status_code="401"\} 1/)
      assert.match(response.body, /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/plants\/:id"/)
      assert.match(response.body, /process_resident_memory_bytes/)
      assert.equal(response.body.includes(probeId), false, 'ids do not become label values')
    })

    test('GET /openapi.json is the OpenAPI 3.1 document of version 1.0.0 with every operation', async () => {
      const response = await fx.api.request<{
        openapi: string
        info: { version: string }
        paths: Record<string, Record<string, { security?: unknown[] }>>
        components: { securitySchemes: Record<string, { scheme: string }> }
      }>('GET', '/openapi.json')
      assert.equal(response.status, 200)
      const document = response.body
      assert.equal(document.openapi, '3.1.0')
      assert.equal(document.info.version, '1.0.0')
      assert.equal(document.components.securitySchemes.bearerAuth?.scheme, 'bearer')
      assert.deepEqual(Object.keys(document.paths['/plants'] ?? {}).sort(), ['get', 'post'])
      assert.deepEqual(Object.keys(document.paths['/plants/{id}'] ?? {}).sort(), ['delete', 'get', 'patch'])
      const scopes = Object.fromEntries(
        Object.entries(document.paths).flatMap(([path, operations]) =>
          Object.entries(operations).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation.security]),
        ),
      )
      assert.deepEqual(scopes, {
        'POST /plants': [{ bearerAuth: ['plants:write'] }],
        'GET /plants': [{ bearerAuth: ['plants:read'] }],
        'GET /plants/{id}': [{ bearerAuth: ['plants:read'] }],
        'PATCH /plants/{id}': [{ bearerAuth: ['plants:write'] }],
        'DELETE /plants/{id}': [{ bearerAuth: ['plants:write'] }],
        'GET /healthz': [],
        'GET /readyz': [],
        'GET /metrics': [],
        'POST /webhooks': [{ bearerAuth: ['webhooks:manage'] }],
        'GET /webhooks': [{ bearerAuth: ['webhooks:manage'] }],
        'DELETE /webhooks/{id}': [{ bearerAuth: ['webhooks:manage'] }],
        'GET /webhooks/{id}': [{ bearerAuth: ['webhooks:manage'] }],
        'PATCH /webhooks/{id}': [{ bearerAuth: ['webhooks:manage'] }],
        'GET /webhooks/{id}/deliveries': [{ bearerAuth: ['webhooks:manage'] }],
        'POST /webhooks/{id}/deliveries/{webhookId}/redeliver': [{ bearerAuth: ['webhooks:manage'] }],
        'POST /webhooks/{id}/recover': [{ bearerAuth: ['webhooks:manage'] }],
        'POST /webhooks/{id}/ping': [{ bearerAuth: ['webhooks:manage'] }],
        'POST /webhooks/{id}/rotate-secret': [{ bearerAuth: ['webhooks:manage'] }],
      })
    })

    test('GET /docs serves an interactive page for the document', async () => {
      const response = await fetch(`${fx.service.url}/docs`)
      assert.equal(response.status, 200)
      assert.match(response.headers.get('content-type') ?? '', /text\/html/)
      assert.match(await response.text(), /swagger/i)
    })
  })
}
