import { type Context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api'
import type { FastifyInstance, FastifyRequest } from 'fastify'

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's SERVER span and the context that holds it; set only while tracing is on. */
    traceSpan: Span | null
    traceContext: Context | null
  }
}

/**
 * One SERVER span per request, `{method} {route}`, a child of the caller's `traceparent` when
 * it sends one. A sampled span is the active one through the hooks and the handler, so the
 * store's spans are its children. What it records is fixed: method, route template, the path without
 * its query (which may carry `access_token`), status and service name; never a header or a body.
 * Registered first, on the root instance, only when tracing is on.
 */
export function registerServerSpans(app: FastifyInstance, serviceName: string): void {
  const tracer = trace.getTracer('plantstore-http')
  app.decorateRequest('traceSpan', null)
  app.decorateRequest('traceContext', null)
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers)
    const route = request.routeOptions.url
    const query = request.url.indexOf('?')
    const span = tracer.startSpan(
      route === undefined ? request.method : `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          'url.path': query === -1 ? request.url : request.url.slice(0, query),
          'service.name': serviceName,
          ...(route === undefined ? {} : { 'http.route': route }),
        },
      },
      parent,
    )
    request.traceSpan = span
    // A request the sampler left out has ids (its log line and its events' traceparent) but no
    // children to record: it skips the context, which costs an AsyncLocalStorage run per hook.
    if (!span.isRecording()) return done()
    request.traceContext = trace.setSpan(parent, span)
    context.with(request.traceContext, done)
  })
  // The body is read between the hooks, in the socket's context: the handler gets the span back here.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.traceContext === null) done()
    else context.with(request.traceContext, done)
  })
  app.addHook('onResponse', (request, reply, done) => {
    endSpan(request, reply.statusCode)
    done()
  })
}

function endSpan(request: FastifyRequest, status: number): void {
  const span = request.traceSpan
  if (span === null) return
  span.setAttribute('http.response.status_code', status)
  if (status >= 500) {
    span.setAttribute('error.type', String(status))
    span.setStatus({ code: SpanStatusCode.ERROR })
  }
  span.end()
}
