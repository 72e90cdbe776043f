import type { Span } from '@opentelemetry/api'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { PlantStore } from '../store/store.js'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The store as this request uses it. With tracing on, a sampled request's calls are spans
     * of its trace; otherwise it is the store itself.
     */
    readonly store: PlantStore
    /** The request's SERVER span while tracing is on; null otherwise. */
    traceSpan: Span | null
  }
}

/** `request.store`, a getter on the request's prototype: it costs a request nothing to set; and `request.traceSpan`. */
export function decorateRequestStore(app: FastifyInstance, storeOf: (this: FastifyRequest) => PlantStore): void {
  app.decorateRequest('store', { getter: storeOf })
  app.decorateRequest('traceSpan', null)
}
