import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'
import type { Registry } from 'prom-client'
import { metricsExposition } from '../observability/cluster-metrics.js'
import { errorResponses } from './schemas.js'
import type { PlantStore } from '../store/store.js'

interface OpsRoutesOptions {
  store: PlantStore
  metrics: Registry
}

const StatusSchema = Type.Object({ status: Type.String() })
const tags = ['operations']

/** Routes that need no token: liveness, readiness, metrics and the API document. */
export async function opsRoutes(app: FastifyInstance, { store, metrics }: OpsRoutesOptions): Promise<void> {
  const exposition = metricsExposition(metrics)
  app.get(
    '/healthz',
    {
      schema: {
        summary: 'The process is up',
        tags,
        response: { 200: { ...StatusSchema, description: 'Always ok while the process serves' } },
      },
    },
    async () => ({ status: 'ok' }),
  )

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'The database answers',
        tags,
        response: { 200: { ...StatusSchema, description: 'Ready to serve' }, ...errorResponses(503) },
      },
    },
    async () => {
      await store.ping()
      return { status: 'ready' }
    },
  )

  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Prometheus metrics',
        tags,
        produces: ['text/plain'],
        response: { 200: { description: 'Prometheus text exposition format', type: 'string' } },
      },
    },
    async (_request, reply) => {
      reply.type(metrics.contentType)
      return exposition()
    },
  )

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
}
