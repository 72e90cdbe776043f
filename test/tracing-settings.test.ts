import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { type Server, type Socket, createServer } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, test } from 'node:test'
import { freshDatabase } from '../support/databases.js'
import { OtlpReceiver, SPAN_KIND } from '../support/otlp-receiver.js'
import { Receiver, pause } from '../support/receiver.js'
import { REPO_ROOT, startService, tempFolder } from '../support/service.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'

const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c'
const SAMPLED_PARENT = `00-${CALLER_TRACE}-b7ad6b7169203331-01`
const JSON_EXPORT = { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100' }

/** Runs `work` with a service on SQLite and an OTLP receiver, both ended afterwards. */
async function withTracedService(
  env: Record<string, string>,
  work: (fx: ServiceFixture, otlp: OtlpReceiver) => Promise<void>,
): Promise<void> {
  const otlp = await OtlpReceiver.start()
  const fx = await startFixture('sqlite', { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, ...env })
  try {
    await work(fx, otlp)
  } finally {
    await fx.close()
    await otlp.close()
  }
}

const create = async (fx: ServiceFixture, id: number, headers: Record<string, string> = {}) => {
  const answer = await fx.api.request('POST', '/plants', { token: fx.adminToken, json: { id, name: `plant ${id}` }, headers })
  assert.equal(answer.status, 200, answer.text)
}

/** The @opentelemetry packages a service imported while it started and served `work`. */
async function packagesLoaded(env: Record<string, string>, work: (fx: ServiceFixture) => Promise<void>): Promise<Set<string>> {
  const folder = tempFolder()
  const file = join(folder.path, 'loaded.txt')
  const hook = pathToFileURL(join(REPO_ROOT, 'dist/support/loaded-packages/register.js')).href
  const fx = await startFixture('sqlite', { NODE_OPTIONS: `--import=${hook}`, LOADED_PACKAGES_FILE: file, ...env })
  try {
    await work(fx)
  } finally {
    await fx.close()
  }
  const loaded = new Set(readFileSync(file, { encoding: 'utf8', flag: 'a+' }).split('\n').filter(Boolean))
  folder.remove()
  return loaded
}

describe('tracing settings', () => {
  test('off (no endpoint): of OpenTelemetry only the API is loaded; on: the SDK and the exporter are', async () => {
    const serve = async (fx: ServiceFixture) => {
      await create(fx, 1, { traceparent: SAMPLED_PARENT })
      assert.equal((await fx.api.request('GET', '/plants', { token: fx.adminToken })).status, 200)
    }
    const off = await packagesLoaded({}, serve)
    assert.deepEqual(
      [...off].filter((name) => name !== '@opentelemetry/api'),
      [],
    )
    const otlp = await OtlpReceiver.start()
    try {
      const on = await packagesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url }, serve)
      assert.ok(on.has('@opentelemetry/sdk-trace-node'), [...on].join(', '))
      assert.ok(on.has('@opentelemetry/exporter-trace-otlp-proto'), [...on].join(', '))
    } finally {
      await otlp.close()
    }
  })

  test('OTEL_SDK_DISABLED=true: nothing exported, no traceparent on webhooks, no trace ids in the log', async () => {
    const hooks = await Receiver.start()
    try {
      await withTracedService({ ...JSON_EXPORT, OTEL_SDK_DISABLED: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, async (fx, otlp) => {
        const subscribed = await fx.api.request('POST', '/webhooks', { token: fx.adminToken, json: { url: hooks.url() } })
        assert.equal(subscribed.status, 201)
        await create(fx, 2, { traceparent: SAMPLED_PARENT })
        const [delivery] = await hooks.until((received) => received.length === 1)
        assert.equal(delivery?.headers.traceparent, undefined)
        assert.equal(await fx.service.stop(), 0)
        assert.equal(otlp.requests.length, 0)
        assert.ok(fx.logs().includes('request completed'))
        assert.ok(!fx.logs().includes('trace_id'))
      })
    } finally {
      await hooks.close()
    }
  })

  test('the default protocol is http/protobuf to {endpoint}/v1/traces, with OTEL_EXPORTER_OTLP_HEADERS', async () => {
    await withTracedService({ OTEL_BSP_SCHEDULE_DELAY: '100', OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=k-123' }, async (fx, otlp) => {
      await create(fx, 3, { traceparent: SAMPLED_PARENT })
      // The create's SERVER span may come in a later export than the fixture's own requests'
      // spans, and than its own store span (which ends first): wait for the span itself.
      const callerTrace = Buffer.from(CALLER_TRACE, 'hex')
      const serverSpanName = Buffer.from('POST /plants')
      const exported = () => Buffer.concat(otlp.requests.map((request) => request.body))
      const since = Date.now()
      while (!(exported().includes(callerTrace) && exported().includes(serverSpanName)) && Date.now() - since < 5_000) await pause(25)
      const [first] = otlp.requests
      assert.ok(first, 'an export arrived')
      assert.equal(first.path, '/v1/traces')
      assert.equal(first.contentType, 'application/x-protobuf')
      assert.equal(first.headers['x-collector-key'], 'k-123')
      const bytes = exported()
      assert.ok(bytes.includes(callerTrace), "the caller's trace id, as 16 bytes")
      assert.ok(bytes.includes(serverSpanName), 'the SERVER span, named for its route')
      assert.ok(bytes.includes(Buffer.from('plantstore')))
    })
  })

  test('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as it is; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name the resource', async () => {
    const otlp = await OtlpReceiver.start()
    const fx = await startFixture('sqlite', {
      ...JSON_EXPORT,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${otlp.url}/collector/traces`,
      OTEL_SERVICE_NAME: 'plants-eu',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=staging',
    })
    try {
      await create(fx, 4)
      const [span] = await otlp.until((spans) => spans.some((one) => one.kind === SPAN_KIND.server))
      assert.equal(otlp.requests[0]?.path, '/collector/traces')
      assert.equal(span?.resource['service.name'], 'plants-eu')
      assert.equal(span?.resource['deployment.environment.name'], 'staging')
      assert.equal(span?.attributes['service.name'], 'plants-eu')
    } finally {
      await fx.close()
      await otlp.close()
    }
  })

  test('parentbased_traceidratio 0: a request of its own is not sampled, one under a sampled traceparent is', async () => {
    await withTracedService(
      { ...JSON_EXPORT, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' },
      async (fx, otlp) => {
        for (let id = 10; id < 20; id++) await create(fx, id)
        await create(fx, 20, { traceparent: SAMPLED_PARENT })
        await create(fx, 21, { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-00` })
        const spans = await otlp.until((all) => all.some((span) => span.traceId === CALLER_TRACE && span.kind === SPAN_KIND.server))
        await pause(500)
        assert.deepEqual([...new Set(spans.map((span) => span.traceId))], [CALLER_TRACE], 'only the sampled trace')
      },
    )
  })

  test('SIGTERM exports the spans of every request answered before it, and exits 0 within 10 s', async () => {
    // Nothing is exported on the schedule: only the stop can send them.
    await withTracedService({ ...JSON_EXPORT, OTEL_BSP_SCHEDULE_DELAY: '600000' }, async (fx, otlp) => {
      for (let id = 30; id < 60; id++) await create(fx, id)
      assert.equal(otlp.requests.length, 0)
      const since = Date.now()
      assert.equal(await fx.service.stop('SIGTERM'), 0)
      assert.ok(Date.now() - since < 10_000)
      assert.equal(otlp.spans.filter((span) => span.name === 'POST /plants').length, 30)
    })
  })

  for (const collector of ['a closed port', 'a collector that never answers'] as const) {
    test(`with ${collector}, requests are answered as quickly and SIGTERM still exits 0 within 10 s`, async () => {
      const silent = collector === 'a closed port' ? null : await silentServer()
      const endpoint = silent === null ? `http://127.0.0.1:${await closedPort()}` : `http://127.0.0.1:${silent.port}`
      const db = await freshDatabase('sqlite')
      const service = await startService({ DATABASE_URL: db.url, OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '50' })
      try {
        const token = /^(pst_\S+)$/m.exec(service.stderr())?.[1] ?? ''
        const slowest = { ms: 0 }
        for (let id = 1; id <= 200; id++) {
          const started = performance.now()
          const answer = await fetch(`${service.url}/plants`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ id, name: `plant ${id}` }),
          })
          assert.equal(answer.status, 200)
          slowest.ms = Math.max(slowest.ms, performance.now() - started)
        }
        assert.ok(slowest.ms < 1_000, `the slowest of 200 creates took ${slowest.ms.toFixed(0)} ms`)
        const since = Date.now()
        assert.equal(await service.stop('SIGTERM'), 0)
        assert.ok(Date.now() - since < 10_000, `stopped in ${Date.now() - since} ms`)
      } finally {
        await service.stop('SIGKILL')
        await db.drop()
        silent?.close()
      }
    })
  }

  test('a protocol other than OTLP over HTTP stops the start with the variable named', async () => {
    const db = await freshDatabase('sqlite')
    try {
      await assert.rejects(
        startService({ DATABASE_URL: db.url, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
        /OTEL_EXPORTER_OTLP_PROTOCOL must be http\/protobuf or http\/json/,
      )
    } finally {
      await db.drop()
    }
  })
})

/** A port that was free a moment ago: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Accepts connections and never answers: an export waits for its own timeout. */
async function silentServer(): Promise<{ port: number; close(): void }> {
  const sockets: Socket[] = []
  const server: Server = createServer((socket) => sockets.push(socket.on('error', () => {})))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as { port: number }).port,
    close() {
      for (const socket of sockets) socket.destroy()
      server.close()
    },
  }
}
