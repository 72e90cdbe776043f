import type { FastifyReply, FastifyRequest } from 'fastify'
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

/**
 * A part of the service with metrics of its own. The composition root (src/app.ts) makes one
 * registry and registers every part's metrics in it, once: the one way metrics are added.
 */
export interface HasMetrics {
  registerMetrics(registry: Registry): void
}

/** The app's registry, with the process's own metrics (memory, CPU, event loop lag). */
export function createRegistry(): Registry {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  return registry
}

const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const LABELS = ['method', 'route', 'status_code'] as const
const DURATION = 'http_request_duration_seconds'

/**
 * Request counts and latency by route and status. A request costs one observation:
 * `http_requests_total` is the histogram's count, read from it when the registry is scraped.
 */
export class RequestMetrics implements HasMetrics {
  private readonly duration = new Histogram({
    name: DURATION,
    help: 'Time from request to the end of the response, by method, route pattern and status',
    labelNames: LABELS,
    buckets: DURATION_BUCKETS,
    registers: [],
  })

  registerMetrics(registry: Registry): void {
    const duration = this.duration
    registry.registerMetric(duration)
    new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: LABELS,
      registers: [registry],
      async collect() {
        this.reset()
        for (const { metricName, labels, value } of (await duration.get()).values) {
          if (metricName !== `${DURATION}_count`) continue
          this.inc({ method: labels.method, route: labels.route, status_code: labels.status_code }, value)
        }
      },
    })
  }

  /** Counts one answered request; called once per response, by the request recorder. */
  record(request: FastifyRequest, reply: FastifyReply): void {
    // The route pattern, never the raw URL: ids and bad paths must not create new series.
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: reply.statusCode }
    this.duration.observe(labels, reply.elapsedTime / 1000)
  }
}
