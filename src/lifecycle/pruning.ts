import type { FastifyInstance } from 'fastify'

/** Rows deleted per statement, and how often the pruning runs. */
const PRUNE_BATCH = 1_000
const PRUNE_EVERY_MS = 60_000

/**
 * Every minute while the app runs, deletes what `prune` finds older than `keepMs`, in batches
 * so that no statement holds a lock for long. `what` names the rows in the log.
 */
export function pruneEveryMinute(
  app: FastifyInstance,
  what: string,
  keepMs: number,
  prune: (before: Date, limit: number) => Promise<number>,
): void {
  let running = false
  const run = async () => {
    if (running) return
    running = true
    try {
      const before = new Date(Date.now() - keepMs)
      while ((await prune(before, PRUNE_BATCH)) === PRUNE_BATCH);
    } catch (error) {
      app.log.warn({ err: error }, `pruning ${what} failed; trying again later`)
    } finally {
      running = false
    }
  }
  const timer = setInterval(() => void run(), PRUNE_EVERY_MS).unref()
  app.addHook('onClose', async () => clearInterval(timer))
}
