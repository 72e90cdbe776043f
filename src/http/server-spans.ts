import { type Context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify'
import { traceIdsOf } from '../observability/trace-context.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's SERVER span; set only while tracing is on. */
    traceSpan: Span | null
    /** The context holding that span when it is sampled; else null. */
    traceContext: Context | null
  }
}

/**
 * One SERVER span per request, `{method} {route}`, a child of the caller's `traceparent` when
 * it sends one. A sampled span is the active one through the hooks and the handler, so the
 * store's spans are its children. What it records is fixed: method, route template, the path
 * without its query (which may carry `access_token`), status and service name; never a header
 * or a body. Registered first, on the root instance, only when tracing is on; the span ends in
 * `endServerSpan`, called by the request log once per response.
 */
export function registerServerSpans(app: FastifyInstance, serviceName: string): void {
  const tracer = trace.getTracer('plantstore-http')
  app.decorateRequest('traceSpan', null)
  app.decorateRequest('traceContext', null)
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers)
    const route = request.routeOptions.url
    const query = request.url.indexOf('?')
    const attributes: Record<string, string> = {
      'http.request.method': request.method,
      'url.path': query === -1 ? request.url : request.url.slice(0, query),
      'service.name': serviceName,
    }
    if (route !== undefined) attributes['http.route'] = route
    const span = tracer.startSpan(
      route === undefined ? request.method : `${request.method} ${route}`,
      { kind: SpanKind.SERVER, attributes },
      parent,
    )
    request.traceSpan = span
    // A request the sampler left out has ids (its log line and its events' traceparent) but no
    // children to record: it skips the context, which costs an AsyncLocalStorage run.
    if (!span.isRecording()) return done()
    request.traceContext = trace.setSpan(parent, span)
    context.with(request.traceContext, done)
  })
  // The body is read between the hooks, in the socket's context: the handler gets the span back.
  // A wrapper rather than a preHandler hook, which would cost every request a hook run.
  app.addHook('onRoute', (route) => {
    const handler = route.handler as (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => unknown
    route.handler = function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      if (request.traceContext === null) return handler.call(this, request, reply)
      return context.with(request.traceContext, handler, this, request, reply)
    } as RouteHandlerMethod
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
