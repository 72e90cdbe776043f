import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, propagation, trace } from '@opentelemetry/api'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type DatabaseSystem, storeSpans } from '../store/traced-store.js'
import type { PlantStore } from '../store/store.js'
import { decorateRequestStore } from './request-store.js'
import { traceIdsOf } from '../observability/trace-context.js'

declare module 'fastify' {
  interface FastifyRequest {
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
 * request's `request.store` records its calls as the span's children. Used only while
 * tracing is on, by the request recorder, which Fastify tells of every request as it arrives and
 * once it is answered: a hook of its own would cost every request a hook run.
 */
export class ServerSpans {
  private readonly tracer = trace.getTracer('plantstore-http')
  private readonly stores: { childrenOf(span: Span): PlantStore }

  constructor(
    private readonly serviceName: string,
    private readonly store: PlantStore,
    system: DatabaseSystem,
  ) {
    this.stores = storeSpans(store, system)
  }

  /** Gives the app's requests their span and `request.store`; before any route is added. */
  decorate(app: FastifyInstance): void {
    const store = this.store
    app.decorateRequest('tracedStore', null)
    decorateRequestStore(app, function (this: FastifyRequest) {
      return this.tracedStore ?? store
    })
  }

  /** Starts the request's span, before its first hook. */
  start(request: FastifyRequest): void {
    const parent = request.headers.traceparent === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, request.headers)
    const route = request.routeOptions.url
    const span = this.tracer.startSpan(route === undefined ? request.method : `${request.method} ${route}`, SERVER, parent)
    request.traceSpan = span
    if (!span.isRecording()) return
    const query = request.url.indexOf('?')
    span.setAttributes({
      'http.request.method': request.method,
      'url.path': query === -1 ? request.url : request.url.slice(0, query),
      'service.name': this.serviceName,
    })
    if (route !== undefined) span.setAttribute('http.route', route)
    request.tracedStore = this.stores.childrenOf(span)
  }

  /** Ends the request's span with its status (5xx: an error), and answers its ids for the log line. */
  end(request: FastifyRequest, reply: FastifyReply): Record<string, string> {
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
}
