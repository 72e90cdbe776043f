import type BetterSqlite3 from 'better-sqlite3'

/**
 * The store-wide plant version counter (one row, shared by every process on the file), read at
 * most once per write transaction and written back once at its end: a group commit of many
 * creates costs two statements for their versions instead of one each. Only used under the
 * transaction's write lock, so no other process moves the counter meanwhile.
 */
export class VersionCounter {
  private readonly read: BetterSqlite3.Statement
  private readonly save: BetterSqlite3.Statement
  /** The next version to give in the current transaction; null until one is asked for. */
  private next: number | null = null

  constructor(db: BetterSqlite3.Database) {
    this.read = db.prepare('SELECT value FROM plant_version_counter').pluck()
    this.save = db.prepare('UPDATE plant_version_counter SET value = ?')
  }

  /** At a write transaction's start: what an earlier (possibly rolled back) one took is forgotten. */
  begin(): void {
    this.next = null
  }

  /** A version never given before, inside a write transaction. */
  take(): number {
    const version = this.next ?? (this.read.get() as number) + 1
    this.next = version + 1
    return version
  }

  /** At the end of a write transaction, inside it: the counter moved past what was taken. */
  end(): void {
    if (this.next !== null) this.save.run(this.next - 1)
    this.next = null
  }
}
