import cluster from 'node:cluster'
import type { FastifyRequest } from 'fastify'
import { type DestinationStream, pino, type Logger, type LoggerOptions } from 'pino'
import { loggableUrl } from './safe-url.js'

/** Lines are gathered until this many bytes are waiting, then written in one system call. */
const MIN_WRITE_BYTES = 4096
/** A quiet server's lines wait at most this long. */
const FLUSH_EVERY_MS = 250

/**
 * JSON lines on standard output, written asynchronously in batches by pino's own destination
 * (`minLength`), so that a busy server makes one system call for many lines. `flushLogs`
 * writes what waits on a graceful stop; pino writes it synchronously at exit.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    loggerOptions(level),
    destination ??
      pino.destination({
        dest: 1,
        sync: false,
        minLength: MIN_WRITE_BYTES,
        // A worker writes at most 8 KiB of whole lines at a time; alone, larger writes keep up
        // with a busy server's log better.
        maxWrite: cluster.isWorker ? 2 * MIN_WRITE_BYTES : 4 * MIN_WRITE_BYTES,
        periodicFlush: FLUSH_EVERY_MS,
      }),
  )
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
