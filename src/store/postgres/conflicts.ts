/** serialization_failure and deadlock_detected: the server rolled the transaction back, and running it again is safe. */
const CONFLICT_STATES = new Set(['40001', '40P01'])

/** How often a transaction the server rolled back for a conflict is run again, and the longest wait before each. */
const CONFLICT_TRIES = 5
const CONFLICT_WAIT_MS = 20

export const isConflict = (error: unknown) => CONFLICT_STATES.has(String((error as { code?: unknown }).code))

/**
 * Runs `work`, and again (at most CONFLICT_TRIES in all, after a short random wait) while the
 * server rolls it back for a deadlock or a serialization failure: a conflict between writes is
 * the store's to settle, never a caller's 500.
 */
export async function retryingConflicts<T>(work: () => Promise<T>): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await work()
    } catch (error) {
      if (!isConflict(error) || tried >= CONFLICT_TRIES) throw error
      await new Promise((resolve) => setTimeout(resolve, Math.random() * CONFLICT_WAIT_MS * tried))
    }
  }
}
