import cluster, { type Worker } from 'node:cluster'
import type { Logger } from 'pino'
import { answerMetricsRequests } from './observability/cluster-metrics.js'
import { flushLogs } from './observability/logger.js'
import { WRITE_TURNS_ENV, grantWriteTurns } from './store/sqlite/write-turns.js'

/**
 * The primary process of WORKERS > 1: it prepares the database once, starts the workers (each a
 * whole service on the shared port), replaces a worker that dies, and on SIGTERM or SIGINT
 * stops them all gracefully and exits with 1 if any of them failed to.
 */
export async function superviseWorkers(
  count: number,
  logger: Logger,
  prepare: () => Promise<void>,
  { oneLead, writeTurns }: { oneLead: boolean; writeTurns: boolean },
): Promise<void> {
  await prepare()
  answerMetricsRequests()
  // SQLite has one writer at a time: the workers take turns, granted here, rather than meet its lock taken.
  if (writeTurns) grantWriteTurns()
  const everListened = new WeakSet<Worker>()
  let stopping = false
  let failed = false
  // On SQLite one worker (and its replacement after it) delivers webhooks and logs Litestream's
  // warnings; the others do neither. Every worker still reads Litestream for its own lag gauge.
  let lead: Worker | null = null

  const start = () => {
    const leads = !oneLead || lead === null
    const worker = cluster.fork({
      ...(leads ? {} : { PLANTSTORE_WEBHOOK_DELIVERY: 'off', PLANTSTORE_REPLICATION_WARNINGS: 'off' }),
      // Tells the worker this primary grants turns: another cluster primary (pm2) sets no such thing.
      ...(writeTurns ? { [WRITE_TURNS_ENV]: 'on' } : {}),
    })
    if (oneLead && leads) lead = worker
    // A message sent to a worker that has just died (a write turn, a metrics answer) fails with
    // EPIPE as an 'error' event: without a listener it would end the primary, and every worker
    // with it. Its exit follows, and is handled there.
    worker.on('error', (error) => logger.debug({ workerPid: worker.process.pid, err: error }, 'a message to a worker failed'))
    return worker.once('listening', function (this: Worker) {
      everListened.add(this)
    })
  }
  const running = () => Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined)
  const finish = () => {
    logger.info('closed')
    if (failed) process.exitCode = 1
    void flushLogs(logger)
  }
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'closing: stopping the workers')
    const workers = running()
    for (const worker of workers) worker.process.kill('SIGTERM')
    if (workers.length === 0) finish()
  }

  cluster.on('exit', (worker, code, signal) => {
    if (worker === lead) lead = null
    if (stopping) {
      if (code !== 0) failed = true
      if (running().length === 0) finish()
      return
    }
    if (!everListened.has(worker)) {
      logger.error({ workerPid: worker.process.pid, code, signal }, 'a worker failed to start; stopping the others')
      failed = true
      stop('SIGTERM')
      return
    }
    // `pid` is the primary's own, on every line: the worker's is named apart.
    logger.error({ workerPid: worker.process.pid, code, signal }, 'a worker exited; starting another')
    start()
  })
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  for (let i = 0; i < count; i++) start()
  logger.info({ workers: count }, 'started the workers')
}
