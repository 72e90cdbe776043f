import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Database } from '../src/store/sqlite/driver.js'
import { STORE_KINDS, type StoreKind, adminQuery } from '../support/databases.js'
import { type ExportedSpan, OtlpReceiver, SPAN_KIND } from '../support/otlp-receiver.js'
import { Receiver } from '../support/receiver.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'

/** Spans leave the service within 100 ms of their end, so the tests wait little. */
const FAST_EXPORT = { OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }
const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const CALLER_SPAN = '00f067aa0ba902b7'
const traceparent = (flags = '01') => `00-${CALLER_TRACE}-${CALLER_SPAN}-${flags}`

const serverSpan = (spans: ExportedSpan[], name: string, traceId = CALLER_TRACE) =>
  spans.find((span) => span.kind === SPAN_KIND.server && span.name === name && span.traceId === traceId)

for (const kind of STORE_KINDS) {
  describe(`traces of requests, the store and webhook attempts on ${kind}`, () => {
    let otlp: OtlpReceiver
    let hooks: Receiver
    let fx: ServiceFixture
    let secret: string
    before(async () => {
      otlp = await OtlpReceiver.start()
      hooks = await Receiver.start()
      fx = await startFixture(kind, { ...FAST_EXPORT, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url })
      const subscribed = await fx.api.request<{ secret: string }>('POST', '/webhooks', {
        token: fx.adminToken,
        json: { url: hooks.url(), events: ['newPlant', 'plantDeleted'] },
      })
      assert.equal(subscribed.status, 201, subscribed.text)
      secret = subscribed.body.secret
    })
    after(async () => {
      await fx.close()
      await hooks.close()
      await otlp.close()
    })

    test('a create under a traceparent: its SERVER span, the store span under it, and the webhook attempt in the same trace', async () => {
      const created = await fx.api.request('POST', '/plants', {
        token: fx.adminToken,
        json: { id: 41, name: 'body-name-fern', tag: 'body-tag' },
        headers: { traceparent: traceparent() },
      })
      assert.equal(created.status, 200, created.text)
      const [delivery] = await hooks.until((received) => received.length >= 1)
      const spans = await otlp.until((all) => all.some((span) => span.kind === SPAN_KIND.client && span.name === 'POST'))

      const server = serverSpan(spans, 'POST /plants')
      assert.ok(server, 'a SERVER span "POST /plants" in the caller\'s trace')
      assert.equal(server.parentSpanId, CALLER_SPAN, "the caller's span is its parent")
      assert.deepEqual(server.attributes, {
        'http.request.method': 'POST',
        'http.route': '/plants',
        'url.path': '/plants',
        'http.response.status_code': 200,
        'service.name': 'plantstore',
      })
      assert.equal(server.resource['service.name'], 'plantstore')
      assert.equal(server.statusCode, 0)

      const store = spans.find((span) => span.parentSpanId === server.spanId && span.attributes['db.operation.name'] === 'plants.create')
      assert.ok(store, 'a store span under the SERVER span')
      assert.equal(store.traceId, CALLER_TRACE)
      assert.equal(store.attributes['db.system.name'], kind === 'sqlite' ? 'sqlite' : 'postgresql')

      const attempt = spans.find((span) => span.kind === SPAN_KIND.client && span.name === 'POST' && span.traceId === CALLER_TRACE)
      assert.ok(attempt, 'the webhook attempt is a CLIENT span in the trace of the create')
      assert.equal(attempt.parentSpanId, server.spanId)
      assert.equal(attempt.attributes['http.request.method'], 'POST')
      assert.equal(attempt.attributes['server.address'], '127.0.0.1')
      assert.equal(attempt.attributes['server.port'], hooks.port)
      assert.equal(attempt.attributes['http.response.status_code'], 200)
      assert.equal(delivery?.headers.traceparent, `00-${CALLER_TRACE}-${attempt.spanId}-01`, 'the attempt sends its own span as the parent')

      const line = (await fx.service.waitForLog((logs) => logs.includes(`"span_id":"${server.spanId}"`)))
        .split('\n')
        .find((text) => text.includes('request completed') && text.includes(server.spanId))
      assert.ok(line, 'the request line names its span')
      const fields = JSON.parse(line) as { trace_id: string; span_id: string; url: string }
      assert.deepEqual([fields.trace_id, fields.span_id, fields.url], [CALLER_TRACE, server.spanId, '/plants'])
    })

    test('a delete joins its trace too: its plantDeleted attempt is a CLIENT span under the DELETE', async () => {
      const deleteTrace = 'aaaabbbbccccddddeeeeffff00001111'
      const deleted = await fx.api.request('DELETE', '/plants/41', {
        token: fx.adminToken,
        headers: { traceparent: `00-${deleteTrace}-${CALLER_SPAN}-01` },
      })
      assert.equal(deleted.status, 204, deleted.text)
      const spans = await otlp.until((all) =>
        all.some((span) => span.kind === SPAN_KIND.client && span.traceId === deleteTrace && span.name === 'POST'),
      )
      const server = serverSpan(spans, 'DELETE /plants/:id', deleteTrace)
      assert.ok(server)
      assert.equal(server.attributes['url.path'], '/plants/41')
      assert.equal(server.attributes['http.route'], '/plants/:id')
      const attempt = spans.find((span) => span.kind === SPAN_KIND.client && span.traceId === deleteTrace && span.name === 'POST')
      assert.equal(attempt?.parentSpanId, server.spanId)
      assert.equal(attempt?.attributes['plantstore.webhook.event'], 'plantDeleted')
    })

    test('without a traceparent a request starts a trace of its own; a 404 is named by its method alone', async () => {
      const listed = await fx.api.request('GET', '/plants?limit=5', { token: fx.adminToken })
      assert.equal(listed.status, 200)
      const missing = await fetch(`${fx.service.url}/no/such/path`)
      assert.equal(missing.status, 404)
      const spans = await otlp.until(
        (all) => all.some((span) => span.name === 'GET /plants' && span.parentSpanId === '') && all.some((span) => span.name === 'GET'),
      )
      const list = spans.find((span) => span.name === 'GET /plants' && span.parentSpanId === '')
      assert.notEqual(list?.traceId, CALLER_TRACE)
      assert.equal(spans.find((span) => span.name === 'GET')?.attributes['http.response.status_code'], 404)
    })

    test("a token's first lookup and the list's read are store spans of the request that made them", async () => {
      const listTrace = 'cccc0000cccc0000cccc0000cccc0000'
      const newToken = await fx.token('lister')
      const listed = await fetch(`${fx.service.url}/plants?limit=2`, {
        headers: { authorization: `Bearer ${newToken}`, traceparent: `00-${listTrace}-${CALLER_SPAN}-01` },
      })
      assert.equal(listed.status, 200)
      const spans = await otlp.until((all) => all.some((span) => span.traceId === listTrace && span.name === 'GET /plants'))
      const server = serverSpan(spans, 'GET /plants', listTrace)
      assert.ok(server)
      const children = spans.filter((span) => span.parentSpanId === server.spanId).map((span) => span.attributes['db.operation.name'])
      assert.deepEqual(children.sort(), ['plants.list', 'tokens.findByHash'])
    })

    test('no token, secret, Authorization value, body or access_token reaches the collector', async () => {
      const rotated = await fx.api.request<{ secret: string }>('POST', `/webhooks/${(await subscriptionId(fx)) ?? ''}/rotate-secret`, {
        token: fx.adminToken,
      })
      assert.equal(rotated.status, 200, rotated.text)
      const userToken = await fx.token('reader')
      const queried = await fetch(`${fx.service.url}/plants?access_token=query-secret-0123&limit=1`, {
        headers: { authorization: `Bearer ${userToken}` },
      })
      assert.equal(queried.status, 200)
      await otlp.until(
        (all) => all.some((span) => span.name.endsWith('/rotate-secret')) && all.filter((span) => span.name === 'GET /plants').length >= 2,
      )
      const exported = otlp.requests.map((request) => request.body.toString('utf8')).join('\n')
      for (const [what, text] of [
        ['the admin token', fx.adminToken],
        ['a user token', userToken],
        ['the webhook secret', secret],
        ['the rotated secret', rotated.body.secret],
        ['the Authorization scheme', 'Bearer'],
        ['the access_token value', 'query-secret-0123'],
        ['the query string', 'access_token'],
        ['the request body', 'body-name-fern'],
        ['a body field', 'body-tag'],
      ] as const) {
        assert.ok(!exported.includes(text), `${what} was exported`)
      }
    })

    test('a 5xx answer sets the SERVER span status to error', async () => {
      const release = await makeStoreUnavailable(kind, fx)
      let status: number
      try {
        status = (
          await fx.api.request('POST', '/plants', {
            token: fx.adminToken,
            json: { id: 99, name: 'x' },
            headers: { traceparent: traceparent() },
          })
        ).status
      } finally {
        await release()
      }
      assert.equal(status, 503)
      const spans = await otlp.until((all) =>
        all.some((span) => span.name === 'POST /plants' && span.attributes['http.response.status_code'] === 503),
      )
      const failed = spans.find((span) => span.name === 'POST /plants' && span.attributes['http.response.status_code'] === 503)
      assert.equal(failed?.statusCode, 2, 'status ERROR')
      assert.equal(failed?.attributes['error.type'], '503')
      const ok = serverSpan(spans, 'POST /plants')
      assert.equal(ok?.statusCode, 0, 'a 200 leaves the status unset')
    })
  })
}

async function subscriptionId(fx: ServiceFixture): Promise<string | undefined> {
  const list = await fx.api.request<{ id: string }[]>('GET', '/webhooks', { token: fx.adminToken })
  return list.body[0]?.id
}

/** SQLite: another connection holds the write lock; PostgreSQL: the database takes no connections. Resolves to the undo. */
async function makeStoreUnavailable(kind: StoreKind, fx: ServiceFixture): Promise<() => Promise<void>> {
  if (kind === 'sqlite') {
    const holder = new Database(fx.db.url.replace(/^sqlite:/, ''))
    holder.exec('BEGIN EXCLUSIVE')
    return async () => {
      holder.exec('ROLLBACK')
      holder.close()
    }
  }
  const name = new URL(fx.db.url).pathname.slice(1)
  await adminQuery(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`)
  await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`)
  return () => adminQuery(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`)
}
