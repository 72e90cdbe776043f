import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { Registry } from 'prom-client'
import { documentText } from '../http/document.js'
import { LoggedStoreUnavailableError } from '../http/error-handler.js'
import { StoreUnavailableError } from '../store/store.js'
import { metricsExposition } from '../observability/cluster-metrics.js'
import { HEADERS, errorResponses, response } from '../api/responses.js'
import { StatusSchema } from '../api/schemas.js'

interface OpsRoutesOptions {
  metrics: Registry
}

const tags = ['operations']
/** No token: an orchestrator's probes and a metrics scraper call these. */
const security: [] = []

/** Routes that need no token: liveness, readiness, metrics and the API document. */
export async function opsRoutes(app: FastifyInstance, { metrics }: OpsRoutesOptions): Promise<void> {
  const exposition = metricsExposition(metrics)
  /** Why the last /readyz answered 503; null while ready. */
  let notReady: string | null = null
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'checkLiveness',
        summary: 'The process is up',
        description: 'Answers ok while the process serves, whatever the database does: for a liveness probe.',
        tags,
        security,
        response: { 200: response('Always ok while the process serves', { body: StatusSchema }), ...errorResponses([]) },
      },
    },
    async () => ({ status: 'ok' }),
  )

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'checkReadiness',
        summary: 'The database can serve',
        description:
          'Ready while the store can serve: on PostgreSQL a query answers; on SQLite a read answers and the file takes writes (its last write did not fail for a lock held past the wait, a full disk or a read-only file; after such a failure, a write of its own at most every 2 s, never waiting for the lock, says when it does again). For a readiness probe or a load balancer health check.',
        tags,
        security,
        response: { 200: response('Ready to serve', { body: StatusSchema }), ...errorResponses([503]) },
      },
    },
    async (request) => {
      try {
        await request.store.ping()
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error
        // A probe asks every second or so: the cause is logged when it changes, not per probe.
        const cause = error.message
        if (notReady === null) request.log.warn(`not ready: ${cause}`)
        notReady = cause
        throw new LoggedStoreUnavailableError(cause, { cause: error })
      }
      if (notReady !== null) request.log.info(`ready again (was: ${notReady})`)
      notReady = null
      return { status: 'ready' }
    },
  )

  app.get(
    '/metrics',
    {
      schema: {
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        description: 'Request counts and durations, store and process metrics, in the Prometheus text format (summed over WORKERS).',
        tags,
        security,
        response: {
          200: {
            description: 'Prometheus text exposition format',
            headers: { ...HEADERS.requestId, ...HEADERS.cors },
            content: {
              'text/plain': {
                schema: Type.String({
                  maxLength: 10_000_000,
                  examples: ['http_requests_total{method="GET",route="/plants",status_code="200"} 12\n'],
                }),
              },
            },
          },
          ...errorResponses([]),
        },
      },
    },
    async (_request, reply) => {
      reply.type(metrics.contentType)
      return exposition()
    },
  )

  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(documentText(app.swagger())),
  )
}
