import type { Span } from '@opentelemetry/api'

/**
 * What ties a request's log line and its events to its trace. These read a span the caller
 * holds (the request's, set only while tracing is on), never the active context: an
 * AsyncLocalStorage lookup per call is a cost the request path need not pay.
 */

/** The ids a log line carries, named as OpenTelemetry's log data model names them. */
export function traceIdsOf(span: Span): { trace_id: string; span_id: string } {
  const { traceId, spanId } = span.spanContext()
  return { trace_id: traceId, span_id: spanId }
}

/**
 * The W3C `traceparent` of `span`, kept with an event so that its deliveries join the trace
 * (or, when the request was not sampled, are left out like it); null without a span.
 */
export function traceParentOf(span: Span | null | undefined): string | null {
  if (span === null || span === undefined) return null
  const { traceId, spanId, traceFlags } = span.spanContext()
  return `00-${traceId}-${spanId}-${traceFlags & 1 ? '01' : '00'}`
}
