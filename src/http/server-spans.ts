import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, propagation, trace } from '@opentelemetry/api'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type DatabaseSystem, storeSpans } from '../store/traced-store.js'
import type { PlantStore } from '../store/store.js'
import { decorateRequestStore } from './request-store.js'
import { traceIdsOf } from '../observability/trace-context.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's SERVER span; set only while tracing is on. */
    traceSpan: Span | null
    /** The store whose calls are children of that span, when it is sampled; else null. */
    tracedStore: PlantStore | null
  }
}

const SERVER = { kind: SpanKind.SERVER }

/**
 * One SERVER span per request, `{method} {route}`, a child of the caller's `traceparent` when
 * it sends one. What it records is fixed: method, route template, the path without its query
 * (which may carry `access_token`), status and service name; never a header or a body. The
 * attributes are set once the sampler has kept the span, so a request left out builds none:
 * the samplers the service accepts decide on the trace id and the parent alone. A sampled
 * request's `request.store` records its calls as the span's children. Registered first, on the
 * root instance, only when tracing is on; the span ends in `endServerSpan`, called by the
 * request log once per response.
 */
export function registerServerSpans(app: FastifyInstance, serviceName: string, store: PlantStore, system: DatabaseSystem): void {
  const tracer = trace.getTracer('plantstore-http')
  const stores = storeSpans(store, system)
  app.decorateRequest('traceSpan', null)
  app.decorateRequest('tracedStore', null)
  decorateRequestStore(app, function (this: FastifyRequest) {
    return this.tracedStore ?? store
  })
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = request.headers.traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, request.headers)
    const route = request.routeOptions.url
    const span = tracer.startSpan(route === undefined ? request.method : `${request.method} ${route}`, SERVER, parent)
    request.traceSpan = span
    if (span.isRecording()) {
      const query = request.url.indexOf('?')
      span.setAttributes({
        'http.request.method': request.method,
        'url.path': query === -1 ? request.url : request.url.slice(0, query),
        'service.name': serviceName,
      })
      if (route !== undefined) span.setAttribute('http.route', route)
      request.tracedStore = stores.childrenOf(span)
    }
    done()
  })
}

/** Ends the request's span with its status (5xx: an error), and answers its ids for the log line. */
export function endServerSpan(request: FastifyRequest, reply: FastifyReply): Record<string, string> {
  const span = request.traceSpan
  if (span === null) return {}
  if (span.isRecording()) {
    span.setAttribute('http.response.status_code', reply.statusCode)
    if (reply.statusCode >= 500) {
      span.setAttribute('error.type', String(reply.statusCode))
      span.setStatus({ code: SpanStatusCode.ERROR })
    }
    span.end()
  }
  return traceIdsOf(span)
}
