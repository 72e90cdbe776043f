interface SharedRead<T> {
  run: () => Promise<T>
  resolve: (value: T | Promise<T>) => void
  answer: Promise<T>
}

/**
 * Identical reads asked for in one turn of the event loop share one query, sent when the turn
 * ends. A read never joins a query that was already sent: every read a query answers was asked
 * before the query left, so each sees every write acknowledged before it was asked.
 */
export class SharedTurnReads<T> {
  private turn = new Map<string, SharedRead<T>>()

  /** The answer of `run`, shared with the reads of the same `key` in this turn. */
  read(key: string, run: () => Promise<T>): Promise<T> {
    const shared = this.turn.get(key)
    if (shared !== undefined) return shared.answer
    if (this.turn.size === 0) setImmediate(this.endTurn)
    let resolve!: (value: T | Promise<T>) => void
    const answer = new Promise<T>((settle) => (resolve = settle))
    this.turn.set(key, { run, resolve, answer })
    return answer
  }

  private readonly endTurn = (): void => {
    const reads = this.turn
    this.turn = new Map()
    for (const read of reads.values()) read.resolve(read.run())
  }
}
