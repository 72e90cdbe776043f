import type { FastifyInstance } from 'fastify'
import { setImmediate as nextTurn } from 'node:timers/promises'

/**
 * Rows deleted per statement, and how often the pruning runs. A batch deletes by an index in a
 * few milliseconds, and the next waits for a turn of the event loop: requests are served between.
 */
export const PRUNE_BATCH = 500
const PRUNE_EVERY_MS = 60_000

/** Deletes what `prune` finds older than `before`, batch after batch, each in a turn of its own; resolves with the rows deleted. */
export async function pruneAll(before: Date, prune: (before: Date, limit: number) => Promise<number>): Promise<number> {
  let deleted = 0
  for (;;) {
    const batch = await prune(before, PRUNE_BATCH)
    deleted += batch
    if (batch < PRUNE_BATCH) return deleted
    await nextTurn()
  }
}

/**
 * Every minute while the app runs, deletes what `prune` finds older than `keepMs`, in batches
 * so that no statement holds a lock or the event loop for long. `what` names the rows in the log.
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
      await pruneAll(new Date(Date.now() - keepMs), prune)
    } catch (error) {
      app.log.warn({ err: error }, `pruning ${what} failed; trying again later`)
    } finally {
      running = false
    }
  }
  const timer = setInterval(() => void run(), PRUNE_EVERY_MS).unref()
  app.addHook('onClose', async () => clearInterval(timer))
}
