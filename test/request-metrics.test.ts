import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client'
import { RequestTally, registerRequestMetrics } from '../src/request-metrics.js'

const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

interface Observation {
  method: string
  route: string
  statusCode: number
  seconds: number
}

/** The same observations through prom-client's own Counter and Histogram: the reference. */
function referenceRegistry(observations: Observation[]): Registry {
  const registry = new Registry()
  const labelNames = ['method', 'route', 'status_code']
  const counter = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames, registers: [registry] })
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to the end of the response, by method, route pattern and status',
    labelNames,
    buckets: BOUNDS,
    registers: [registry],
  })
  for (const { method, route, statusCode, seconds } of observations) {
    const labels = { method, route, status_code: statusCode }
    counter.inc(labels)
    histogram.observe(labels, seconds)
  }
  return registry
}

function talliedRegistry(observations: Observation[]): { registry: Registry; tally: RequestTally } {
  const registry = new Registry()
  const tally = new RequestTally(BOUNDS)
  registerRequestMetrics(tally, registry)
  for (const { method, route, statusCode, seconds } of observations) tally.record(method, route, statusCode, seconds)
  return { registry, tally }
}

const observation = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE'),
  route: fc.constantFrom('/plants', '/plants/:id', 'unmatched'),
  statusCode: fc.constantFrom(200, 204, 400, 404, 500),
  // Bucket bounds themselves, values between them, and durations beyond the last bound.
  seconds: fc.oneof(fc.constantFrom(0, ...BOUNDS), fc.double({ min: 0, max: 20, noNaN: true })),
})

test('the exposition text is the one prom-client writes for the same requests, bucket bounds included', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(observation, { maxLength: 60 }), async (observations) => {
      const expected = await referenceRegistry(observations).metrics()
      assert.equal(await talliedRegistry(observations).registry.metrics(), expected)
    }),
    { numRuns: 200 },
  )
})

test('the cluster aggregator sums two workers the same as it sums prom-client metrics', async () => {
  const first: Observation[] = [
    { method: 'GET', route: '/plants', statusCode: 200, seconds: 0.0004 },
    { method: 'GET', route: '/plants', statusCode: 200, seconds: 0.003 },
  ]
  const second: Observation[] = [
    { method: 'GET', route: '/plants', statusCode: 200, seconds: 0.003 },
    { method: 'POST', route: '/plants', statusCode: 400, seconds: 12 },
  ]
  const expected = AggregatorRegistry.aggregate([
    await referenceRegistry(first).getMetricsAsJSON(),
    await referenceRegistry(second).getMetricsAsJSON(),
  ])
  const actual = AggregatorRegistry.aggregate([
    await talliedRegistry(first).registry.getMetricsAsJSON(),
    await talliedRegistry(second).registry.getMetricsAsJSON(),
  ])
  assert.equal(await actual.metrics(), await expected.metrics())
  assert.match(await actual.metrics(), /^http_requests_total\{method="GET",route="\/plants",status_code="200"\} 3$/m)
})

test('resetting the registry empties both metrics', async () => {
  const { registry } = talliedRegistry([{ method: 'GET', route: '/plants', statusCode: 200, seconds: 0.001 }])
  assert.match(await registry.metrics(), /http_requests_total\{/)
  registry.resetMetrics()
  const text = await registry.metrics()
  assert.doesNotMatch(text, /http_requests_total\{/)
  assert.doesNotMatch(text, /http_request_duration_seconds_bucket\{/)
})
