import { StoreUnavailableError } from '../store.js'

/**
 * Runs `callback` in the turn of the event loop after this one ends. Under load, the clients
 * whose answers just went out send their next request meanwhile, so a batch that waits for
 * that turn takes their writes too. A write alone waits a few microseconds more.
 */
function inTheTurnAfter(callback: () => void): void {
  setImmediate(() => setImmediate(callback))
}

interface Pending<W, R> {
  write: W
  resolve: (result: R) => void
  reject: (error: unknown) => void
}

/**
 * Group commit, for both stores: the writes that arrive in one turn of the event loop and in
 * the turn after go to `commit` together (one transaction, one sync to disk), which answers one
 * result per write, in order. Each promise settles only once its own write is committed.
 *
 * When the batch fails for a reason other than an unavailable store, each write is committed
 * again on its own, so that one bad write does not fail the others. Writes that share a
 * `conflictKey` with an earlier write of the batch run alone after it has settled, so that each
 * sees the outcome of the one before.
 */
export class GroupCommit<W, R> {
  private pending: Pending<W, R>[] = []
  /** Flushes waiting for their turn: each takes what is queued once it has it. */
  private awaitingTurn = 0

  /**
   * With `takeTurn`, a batch is taken only in a turn that `takeTurn` grants (one writer process
   * among several), and writes that arrive while it waits join it.
   */
  constructor(
    private readonly commit: (writes: W[]) => Promise<R[]>,
    private readonly conflictKey?: (write: W) => string,
    private readonly takeTurn?: () => Promise<() => void>,
  ) {}

  add(write: W): Promise<R> {
    return new Promise((resolve, reject) => {
      this.pending.push({ write, resolve, reject })
      if (this.pending.length === 1 && this.awaitingTurn === 0) inTheTurnAfter(() => void this.flush())
    })
  }

  /** Commits what is queued now (in its turn, with `takeTurn`), without waiting for the end of the turn of the event loop. */
  async flush(): Promise<void> {
    if (this.takeTurn === undefined) return this.flushNow()
    this.awaitingTurn += 1
    let release: () => void
    try {
      release = await this.takeTurn()
    } finally {
      this.awaitingTurn -= 1
    }
    try {
      await this.flushNow()
    } finally {
      release()
    }
  }

  private async flushNow(): Promise<void> {
    const batch = this.pending
    this.pending = []
    if (batch.length === 0) return
    const { first, later } = this.splitConflicts(batch)
    await this.commitBatch(first)
    for (const pending of later) await this.commitBatch([pending])
  }

  private splitConflicts(batch: Pending<W, R>[]): { first: Pending<W, R>[]; later: Pending<W, R>[] } {
    if (this.conflictKey === undefined || batch.length === 1) return { first: batch, later: [] }
    const seen = new Set<string>()
    const first: Pending<W, R>[] = []
    const later: Pending<W, R>[] = []
    for (const pending of batch) {
      const key = this.conflictKey(pending.write)
      if (seen.has(key)) later.push(pending)
      else {
        seen.add(key)
        first.push(pending)
      }
    }
    return { first, later }
  }

  private async commitBatch(batch: Pending<W, R>[]): Promise<void> {
    let results: R[]
    try {
      results = await this.commit(batch.map((pending) => pending.write))
    } catch (error) {
      if (batch.length === 1 || error instanceof StoreUnavailableError) {
        for (const pending of batch) pending.reject(error)
        return
      }
      await Promise.all(batch.map((pending) => this.commitBatch([pending])))
      return
    }
    batch.forEach((pending, i) => pending.resolve(results[i] as R))
  }
}
