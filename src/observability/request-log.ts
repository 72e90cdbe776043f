import { type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import type { RequestMetrics } from './metrics.js'
import { loggableUrl } from './safe-url.js'

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
 * What every completed request leaves behind, in the one place Fastify calls once per
 * response: its metrics, then one log line with the request and the outcome (Fastify writes
 * two). An onResponse hook of its own for the metrics cost a second hook run per request.
 */
export class RequestLogController extends LogController {
  constructor(private readonly metrics: RequestMetrics) {
    super()
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    this.metrics.record(request, reply)
    if (error) reply.log.error({ ...outcome(request, reply), err: error }, 'request errored')
    // Through the server's logger: the request id is a field of the line, and a request that
    // logged nothing else never needs a child logger of its own.
    else request.server.log.info(outcome(request, reply), 'request completed')
  }
}
