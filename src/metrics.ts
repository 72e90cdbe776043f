import type { FastifyInstance } from 'fastify'
import { Registry, collectDefaultMetrics } from 'prom-client'
import { RequestTally, registerRequestMetrics } from './request-metrics.js'

const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** Request counts and latency by route and status, plus the process's own metrics, in a registry of this app's. */
export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const tally = new RequestTally(DURATION_BUCKETS)
  registerRequestMetrics(tally, registry)
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern, never the raw URL: ids and bad paths must not create new series.
    tally.record(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000)
    done()
  })
  return registry
}
