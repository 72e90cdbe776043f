import type { FastifyInstance } from 'fastify'
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/** Request counts and latency by route and status, plus the process's own metrics, in a registry of this app's. */
export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const labelNames = ['method', 'route', 'status_code'] as const
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames,
    registers: [registry],
  })
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to the end of the response, by method, route pattern and status',
    labelNames,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })

  // One pair of label children per series, looked up by a string key: cheaper than labelling each time.
  const series = new Map<string, { count: () => void; observe: (seconds: number) => void }>()
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: ids and bad paths must not create new series.
    const route = request.routeOptions.url ?? 'unmatched'
    const key = `${request.method} ${route} ${reply.statusCode}`
    let children = series.get(key)
    if (children === undefined) {
      const labels = { method: request.method, route, status_code: reply.statusCode }
      const counter = requests.labels(labels)
      const histogram = duration.labels(labels)
      children = { count: () => counter.inc(), observe: (seconds) => histogram.observe(seconds) }
      series.set(key, children)
    }
    children.count()
    children.observe(reply.elapsedTime / 1000)
    done()
  })
  return registry
}
