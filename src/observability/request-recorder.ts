import { type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import type { RequestMetrics } from './metrics.js'
import { loggableUrl } from './safe-url.js'

/** What traces a request: a span from its arrival to its answer, whose ids its line carries. */
export interface RequestSpans {
  start(request: FastifyRequest): void
  end(request: FastifyRequest, reply: FastifyReply): Record<string, string>
}

/** The fields of a request's line, flat, so that log queries need no nesting. */
function outcome(request: FastifyRequest, reply: FastifyReply) {
  return {
    reqId: request.id,
    method: request.method,
    url: loggableUrl(request.url),
    remoteAddress: request.ip,
    statusCode: reply.statusCode,
    responseTime: reply.elapsedTime,
  }
}

/**
 * Records every request, as Fastify's log controller (the one place Fastify calls as a request
 * arrives and once per response): its SERVER span (tracing on), its metrics, then one log line
 * with the request and the outcome (Fastify writes two). An onResponse hook of its own for the
 * metrics cost a second hook run per request.
 */
export class RequestRecorder extends LogController {
  /** `spans`: with tracing on, each request's SERVER span, started here and ended for its line. */
  constructor(
    private readonly metrics: RequestMetrics,
    private readonly spans: RequestSpans | null = null,
  ) {
    super()
  }

  override incomingRequest(request: FastifyRequest): void {
    this.spans?.start(request)
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    this.metrics.record(request, reply)
    const fields = outcome(request, reply)
    if (this.spans !== null) Object.assign(fields, this.spans.end(request, reply))
    if (error) reply.log.error({ ...fields, err: error }, 'request errored')
    // Through the server's logger: the request id is a field of the line, and a request that
    // logged nothing else never needs a child logger of its own.
    else request.server.log.info(fields, 'request completed')
  }
}
