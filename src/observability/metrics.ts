import type { FastifyInstance } from 'fastify'
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const LABELS = ['method', 'route', 'status_code'] as const

/** Request counts and latency by route and status, plus the process's own metrics, in a registry of this app's. */
export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: LABELS,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to the end of the response, by method, route pattern and status',
    labelNames: LABELS,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  })
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: ids and bad paths must not create new series.
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: reply.statusCode }
    requests.inc(labels)
    duration.observe(labels, reply.elapsedTime / 1000)
    done()
  })
  return registry
}
