import { ROOT_CONTEXT, SpanKind, SpanStatusCode, propagation, trace } from '@opentelemetry/api'
import type { Attempt, AttemptResult, AttemptSender } from './sender.js'

/**
 * A CLIENT span around each webhook attempt, in the trace of the write that made the event
 * (its traceparent is kept with the event, so a retry hours later still joins it), and that
 * span's traceparent sent with the attempt. The span holds the receiver's host and port, never
 * the URL's path or query (a subscriber may put a token there), nor the body or signature.
 */
export class TracedSender implements AttemptSender {
  private readonly tracer = trace.getTracer('plantstore-webhooks')

  constructor(private readonly sender: AttemptSender) {}

  async send(attempt: Attempt): Promise<AttemptResult> {
    const parent = attempt.traceParent === null ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, { traceparent: attempt.traceParent })
    const url = new URL(attempt.url)
    const span = this.tracer.startSpan(
      'POST',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': 'POST',
          'server.address': url.hostname.replace(/^\[(.*)\]$/, '$1'),
          'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
          'plantstore.webhook.event': attempt.event,
          'plantstore.webhook.message_id': attempt.messageId,
        },
      },
      parent,
    )
    const carrier: { traceparent?: string } = {}
    propagation.inject(trace.setSpan(parent, span), carrier)
    try {
      const result = await this.sender.send({
        ...attempt,
        ...(carrier.traceparent === undefined ? {} : { traceparent: carrier.traceparent }),
      })
      if ('status' in result) {
        span.setAttribute('http.response.status_code', result.status)
        if (result.status >= 400) {
          span.setAttribute('error.type', String(result.status))
          span.setStatus({ code: SpanStatusCode.ERROR })
        }
      } else {
        span.setAttribute('error.type', result.blocked ? 'blocked' : 'no_answer')
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.error })
      }
      return result
    } finally {
      span.end()
    }
  }

  close(): void {
    this.sender.close()
  }
}
