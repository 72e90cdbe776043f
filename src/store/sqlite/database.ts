import { closeSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import type { Registry } from 'prom-client'
import { counterReading } from '../../observability/collected-metrics.js'
import { GroupCommit } from '../shared/group-commit.js'
import { type AppliedMigration, migrationStatus, pendingMigrations } from '../shared/migrations.js'
import { StoreUnavailableError } from '../store.js'
import { Database } from './driver.js'
import { VersionCounter } from './version-counter.js'
import { TURN_WAIT_MS, writeTurnOfThisProcess } from './write-turns.js'

/** How long SQLite may wait for a lock held by another connection before the request fails (503). */
export const LOCK_WAIT_MS = 5_000

/** SQLite codes that mean the database cannot serve now (disk, locks, permissions), not a bug. */
const UNAVAILABLE_CODES = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|READONLY|CANTOPEN|CORRUPT|NOTADB|PROTOCOL)/

/** While another connection holds a lock, a statement or batch tries again this often, without blocking. */
const LOCK_RETRY_MS = 1

/** While the last write failed, a scrape or /readyz tries a write of its own at most this often. */
const WRITE_PROBE_EVERY_MS = 2_000

const isBusy = (error: unknown) => (error as { code?: unknown }).code === 'SQLITE_BUSY'

/** The error as the service should see it: StoreUnavailableError when the database cannot serve now. */
function unavailableOr(error: unknown): unknown {
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && UNAVAILABLE_CODES.test(code)) {
    return new StoreUnavailableError(`database unavailable: ${code} (${(error as Error).message})`, { cause: error })
  }
  return error
}

/**
 * Opens the file (and its folder) in WAL mode with every commit synced to disk. A file or folder
 * made here is its owner's only (0600, 0700): it holds tokens' hashes and webhook secrets, and
 * SQLite gives the -wal and -shm the database's mode.
 */
export function openSqliteDatabase(path: string): BetterSqlite3.Database {
  if (path !== ':memory:') {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    closeSync(openSync(path, 'a', 0o600))
  }
  const db = new Database(path, { timeout: LOCK_WAIT_MS })
  db.pragma('journal_mode = WAL')
  // FULL syncs the WAL on every commit: an acknowledged write survives a power cut, not only a crash.
  db.pragma('synchronous = FULL')
  db.pragma('foreign_keys = ON')
  return db
}

export function migrateSqlite(db: BetterSqlite3.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)')
  // IMMEDIATE takes the write lock first, so two processes migrating at once apply each file once.
  db.transaction(() => {
    const rows = db.prepare('SELECT version, name FROM schema_migrations').all() as AppliedMigration[]
    // One machine, an upgrade is a restart: an older release must not write to a schema it does not know.
    const { unknown } = migrationStatus('sqlite', rows)
    if (unknown.length > 0) {
      throw new Error(
        `the database was migrated by a newer release (${unknown.join(', ')}, unknown to this one): run that release or a newer one`,
      )
    }
    const applied = new Set(rows.map((row) => row.version))
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
    for (const migration of pendingMigrations('sqlite', applied)) {
      db.exec(migration.sql)
      record.run(migration.version, migration.name, Date.now())
    }
  }).immediate()
}

/** A write run inside a group commit's transaction; it answers the write's result. */
export type Write = () => unknown

/**
 * The one connection every concern of a SQLite store shares: one writer, whose writes of a turn
 * share one transaction and one sync (group commit), and reads that wait out another process's
 * lock without blocking the event loop.
 */
export class SqliteDatabase {
  /** Whether an active subscription existed when the current write transaction began. */
  subscribed = false
  /** Transactions committed and the writes they carried, for /metrics: their ratio is the writes per sync. */
  readonly commitCounts = { transactions: 0, writes: 0 }
  /** Plant versions for the writes of the current transaction. */
  readonly versions: VersionCounter
  private begun = 0
  private readonly writes: GroupCommit<Write, unknown>
  private readonly commitTransaction: BetterSqlite3.Transaction<(writes: Write[]) => unknown[]>
  private readonly pingStatement: BetterSqlite3.Statement
  private readonly dataVersionStatement: BetterSqlite3.Statement
  /** Why the last write transaction failed (lock held elsewhere, disk full, read-only); null once one succeeds. */
  private writeFailure: StoreUnavailableError | null = null
  private lastWriteProbe = 0
  /** When the batch committing in its turn asked for it: its wait on SQLite's lock counts from there. */
  private turnAskedAt: number | undefined

  private constructor(readonly db: BetterSqlite3.Database) {
    const anySubscription = db.prepare('SELECT 1 FROM webhook_subscriptions WHERE disabled_at IS NULL LIMIT 1').pluck()
    this.pingStatement = db.prepare('SELECT 1').pluck()
    this.dataVersionStatement = db.prepare('PRAGMA data_version').pluck()
    this.versions = new VersionCounter(db)
    this.commitTransaction = db.transaction((writes: Write[]) => {
      // Read under the write lock, so no subscription can appear before this transaction ends:
      // without any, a create writes no event and costs what it did before webhooks.
      this.subscribed = anySubscription.get() !== undefined
      this.versions.begin()
      const results = writes.map((write) => write())
      this.versions.end()
      return results
    })
    // A worker of WORKERS > 1 commits in its turn, which the primary grants to one worker at a time.
    const turn = writeTurnOfThisProcess(TURN_WAIT_MS, LOCK_WAIT_MS)
    this.writes = new GroupCommit(
      (writes) =>
        this.run(() => this.commitNow(writes), this.turnAskedAt).then(
          (results) => {
            this.writeFailure = null
            return results
          },
          (error: unknown) => {
            if (error instanceof StoreUnavailableError) this.writeFailure = error
            throw error
          },
        ),
      undefined,
      turn === null
        ? undefined
        : async () => {
            // The wait for the turn and the wait for the lock share one LOCK_WAIT_MS: a 503 still comes by 5 s.
            const asked = Date.now()
            const release = await turn.take()
            this.turnAskedAt = asked
            return () => {
              this.turnAskedAt = undefined
              release()
            }
          },
    )
    // From here on a lock held by another connection fails at once, and `run` tries again
    // later: SQLite's own wait would sleep with the event loop blocked, in steps of up to 100 ms.
    db.pragma('busy_timeout = 0')
  }

  /** Opens and migrates the file; on a failure the file is closed again. */
  static open(path: string): SqliteDatabase {
    const db = openSqliteDatabase(path)
    try {
      migrateSqlite(db)
    } catch (error) {
      db.close()
      throw error
    }
    return new SqliteDatabase(db)
  }

  /** Joins the group commit: `write` runs in the next transaction, and resolves once it is synced. */
  write<T>(write: () => T): Promise<T> {
    return this.writes.add(write) as Promise<T>
  }

  /** One transaction (BEGIN IMMEDIATE: the write lock first, so a lock held elsewhere fails it before it writes). */
  private commitNow(writes: Write[]): unknown[] {
    this.begun += 1
    const results = this.commitTransaction.immediate(writes)
    this.commitCounts.transactions += 1
    this.commitCounts.writes += writes.length
    return results
  }

  /**
   * Runs `work` now; while another connection (a worker of WORKERS) holds a lock it needs,
   * again every millisecond up to LOCK_WAIT_MS, serving other requests meanwhile.
   */
  run<T>(work: () => T, waitingSince?: number): Promise<T> {
    try {
      return Promise.resolve(work())
    } catch (error) {
      const since = waitingSince ?? Date.now()
      if (isBusy(error) && Date.now() - since < LOCK_WAIT_MS) {
        return new Promise((resolve) => setTimeout(() => resolve(this.run(work, since)), LOCK_RETRY_MS))
      }
      return Promise.reject(unavailableOr(error))
    }
  }

  /** Write transactions this connection has begun, whatever their outcome: data_version counts only other connections' commits. */
  get writesBegun(): number {
    return this.begun
  }

  /** PRAGMA data_version: it changes when another connection commits (`writesBegun` counts this one's). */
  dataVersion(): number {
    return this.dataVersionStatement.get() as number
  }

  /**
   * Whether the store can serve: a read answers, and unless the last write failed, nothing more
   * (a healthy store's scrapes never take the write lock). After a failed write, a write of its
   * own (user_version rewritten as it is: one page to the WAL) at most every
   * WRITE_PROBE_EVERY_MS, without waiting for the lock, tells when the store can write again.
   */
  async ping(): Promise<void> {
    await this.run(() => {
      this.pingStatement.get()
    })
    if (this.writeFailure === null) return
    if (Date.now() - this.lastWriteProbe >= WRITE_PROBE_EVERY_MS) {
      this.lastWriteProbe = Date.now()
      try {
        this.db.pragma(`user_version = ${Number(this.db.pragma('user_version', { simple: true }))}`)
        this.writeFailure = null
        return
      } catch (error) {
        const unavailable = unavailableOr(error)
        if (unavailable instanceof StoreUnavailableError) this.writeFailure = unavailable
      }
    }
    throw this.writeFailure
  }

  /**
   * A write that changes nothing the service reads: user_version rewritten as it is, one page to
   * the WAL. Litestream copies it to its replicas, and a replica's position then tells whether
   * it can be written (src/replication/replication-lag.ts).
   */
  touch(): Promise<void> {
    return this.write(() => {
      this.db.pragma(`user_version = ${Number(this.db.pragma('user_version', { simple: true }))}`)
    })
  }

  /** How well group commit shares its syncs, for /metrics. */
  registerMetrics(registry: Registry): void {
    const counts = this.commitCounts
    counterReading(registry, 'db_commits_total', 'Write transactions committed, each with one sync to disk', () => counts.transactions)
    counterReading(
      registry,
      'db_committed_writes_total',
      'Writes those transactions carried (every write of the store: plants, keys, subscriptions, outcomes)',
      () => counts.writes,
    )
  }

  async close(): Promise<void> {
    // Writes not yet committed are committed now, waiting for the write lock as long as SQLite may.
    await this.writes.flush()
    this.db.close()
  }
}
