import { type FastifyReply, type FastifyRequest, LogController } from 'fastify'
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

/** One line a request, when it completes, with the request and the outcome (Fastify writes two). */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ ...outcome(request, reply), err: error }, 'request errored')
    // Through the server's logger: the request id is a field of the line, and a request that
    // logged nothing else never needs a child logger of its own.
    else request.server.log.info(outcome(request, reply), 'request completed')
  }
}
