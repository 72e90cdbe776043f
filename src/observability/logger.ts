import cluster from 'node:cluster'
import type { FastifyRequest } from 'fastify'
import { type DestinationStream, pino, type Logger, type LoggerOptions } from 'pino'
import { loggableUrl } from './safe-url.js'
import { TurnBatchedDestination } from './turn-batched-destination.js'

/**
 * A worker writes at most PIPE_BUF (4 KiB on Linux) of whole lines at a time: a pipe takes a
 * write of that size whole, so the workers sharing it never interleave within a line (one line
 * longer than that may be). Alone, larger writes keep up with a busy server's log better.
 */
const maxWrite = () => (cluster.isWorker ? 4 * 1024 : 16 * 1024)

/**
 * JSON lines on standard output, the lines of one event-loop turn written together and
 * asynchronously, so that a busy server makes one system call for many lines. `flushLogs`
 * writes what waits on a graceful stop; at exit it is written synchronously.
 */
export function createLogger(level: string, options: { destination?: DestinationStream } = {}): Logger {
  return pino(loggerOptions(level), options.destination ?? new TurnBatchedDestination(1, maxWrite()))
}

function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    // Request headers are never logged: the Authorization header carries a secret.
    serializers: { req: requestSummary },
  }
}

function requestSummary(request: FastifyRequest): Record<string, unknown> {
  return { method: request.method, url: loggableUrl(request.url), remoteAddress: request.ip }
}

export function flushLogs(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()))
}
