import { type Span, context, propagation, trace } from '@opentelemetry/api'

/**
 * What ties logs and stored events to a trace. These read OpenTelemetry's API only: without a
 * registered SDK every call is a no-op that finds no span, so they cost nearly nothing when
 * tracing is off.
 */

/** The ids a log line carries, named as OpenTelemetry's log data model names them. */
export function traceIdsOf(span: Span): { trace_id: string; span_id: string } {
  const { traceId, spanId } = span.spanContext()
  return { trace_id: traceId, span_id: spanId }
}

/** The active span's ids, or nothing outside a span (pino's mixin: merged into each line). */
export function activeTraceIds(): { trace_id: string; span_id: string } | Record<string, never> {
  const span = trace.getActiveSpan()
  return span === undefined ? {} : traceIdsOf(span)
}

/** The W3C `traceparent` of the active span, kept with an event so its deliveries join this trace; null outside one. */
export function activeTraceParent(): string | null {
  if (trace.getActiveSpan() === undefined) return null
  const carrier: { traceparent?: string } = {}
  propagation.inject(context.active(), carrier)
  return carrier.traceparent ?? null
}
