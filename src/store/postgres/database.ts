import type pg from 'pg'
import { Gauge, Histogram, type Registry } from 'prom-client'
import type { PostgresConfig } from '../../config/config.js'
import { type AppliedMigration, migrationStatus, pendingMigrations } from '../shared/migrations.js'
import { SILENT_STORE_LOG, type StoreLog, StoreUnavailableError } from '../store.js'
import { applyMigration } from './apply-migration.js'
import { retryingConflicts } from './conflicts.js'
import { type Pools, isReadOnly, openPools, unavailableOr, withConnection } from './connections.js'

/** Keys of the advisory locks that serialise start-up work across instances. */
const MIGRATION_LOCK = 7_250_001
export const FIRST_TOKEN_LOCK = 7_250_002

/**
 * How long an instance waits for another one's migrate (a slow migration on a large table takes
 * longer than any statement may), and how often it asks; the wait holds no statement open.
 */
const MIGRATION_LOCK_WAIT_MS = 15 * 60_000
const MIGRATION_LOCK_POLL_MS = 250

/** After the read server failed, reads go to the primary for this long before it is tried again. */
const READ_RETRY_MS = 5_000

/**
 * Whether a text can be stored: PostgreSQL refuses U+0000 in text. An id holding it names
 * nothing that exists, so a lookup answers "not found" without asking (as SQLite would).
 */
export const storable = (...texts: string[]) => texts.every((text) => !text.includes('\u0000'))

export const postgresTime = (time: Date) => time

/**
 * The pools every concern of a PostgreSQL store shares: statements (named and prepared, with a
 * latency metric each), transactions, the read server with its fallback to the primary.
 */
export class PostgresDatabase {
  private queryDuration: Histogram<'operation' | 'pool'> | null = null
  private readonly pool: pg.Pool
  private readUnavailableUntil = 0

  private constructor(
    private readonly pools: Pools,
    private readonly preparedStatements: boolean,
    private readonly log: StoreLog,
  ) {
    this.pool = pools.primary
  }

  /**
   * Connects, migrates under an advisory lock (safe when several instances start at once). On a
   * read-only server (an instance pointed at a standby) migrations are left to the primary:
   * reads are served and writes answer 503.
   */
  static async open(config: PostgresConfig, log: StoreLog = SILENT_STORE_LOG): Promise<PostgresDatabase> {
    const database = new PostgresDatabase(await openPools(config, log), config.preparedStatements, log)
    try {
      await database.migrate()
    } catch (error) {
      if (!isReadOnly((error as { cause?: unknown }).cause ?? error)) {
        await database.endPools()
        throw error
      }
      log.warn({}, 'the database is read-only (a standby): migrations are left to the primary; writes answer 503 until it takes writes')
    }
    return database
  }

  /**
   * Runs `work` in a transaction of one pooled connection, again when the server rolls it back
   * for a deadlock or a serialization failure; a database that cannot serve is StoreUnavailableError.
   */
  transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return retryingConflicts(() =>
      withConnection(
        this.pool,
        async (client) => {
          await client.query('BEGIN')
          const result = await work(client)
          await client.query('COMMIT')
          return result
        },
        (client) => client.query('ROLLBACK'),
      ),
    )
  }

  /** A transaction that first waits for the advisory lock `lockKey`: instances take turns. */
  lockedTransaction<T>(lockKey: number, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [lockKey])
      return work(client)
    })
  }

  /**
   * Applies the pending migrations, each file in a transaction of its own, under a session
   * advisory lock (instances starting at once take turns). One transaction for all would hold
   * each file's locks until the last commits, and a write taking them in another order
   * deadlocks with it (seen under load: 009's lock on the outbox, then 010's on plants). Each
   * file waits at most MIGRATION_LOCK_TIMEOUT for a lock; a lock timeout or a deadlock rolls
   * that file back, and it is tried again, up to MIGRATION_ATTEMPTS times.
   */
  private async migrate(): Promise<void> {
    await withConnection(this.pool, async (client) => {
      await this.waitForMigrationLock(client)
      try {
        await client.query(
          'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
        )
        const rows = (await client.query<AppliedMigration>('SELECT version, name FROM schema_migrations')).rows
        // During a rolling upgrade this may be the previous release, on a schema the next one migrated: it serves.
        const { unknown } = migrationStatus('postgres', rows)
        if (unknown.length > 0) {
          this.log.warn(
            { migrations: unknown },
            `the database has migrations this release does not know (${unknown.join(', ')}): a newer release applied them; serving on`,
          )
        }
        const applied = new Set(rows.map((row) => row.version))
        for (const migration of pendingMigrations('postgres', applied)) await applyMigration(client, migration, this.log)
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK])
      }
    })
  }

  /** Takes the migration lock, asking again while another session holds it, up to MIGRATION_LOCK_WAIT_MS. */
  private async waitForMigrationLock(client: pg.PoolClient): Promise<void> {
    const since = Date.now()
    for (;;) {
      const { rows } = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1) AS taken', [MIGRATION_LOCK])
      if (rows[0]?.taken) return
      if (Date.now() - since >= MIGRATION_LOCK_WAIT_MS) {
        throw new Error(
          `another session has held the migration lock (advisory lock ${MIGRATION_LOCK}) for over ${MIGRATION_LOCK_WAIT_MS / 60_000} min: ` +
            'an instance or a migrate is still migrating (see pg_locks where locktype = advisory)',
        )
      }
      await new Promise((resolve) => setTimeout(resolve, MIGRATION_LOCK_POLL_MS))
    }
  }

  /**
   * Runs a statement, a named prepared one unless PG_PREPARED_STATEMENTS=false (a transaction
   * pooler has no session to keep it in); `name` is also the operation label of its latency
   * metric. The pool drops a connection whose query failed.
   */
  async query<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[], pool = this.pool): Promise<pg.QueryResult<R>> {
    const stop = this.queryDuration?.startTimer({ operation: name, pool: pool === this.pool ? 'primary' : 'read' })
    try {
      // One statement is its own transaction: rolled back for a conflict, it is run again.
      return await retryingConflicts(() => pool.query<R>(this.preparedStatements ? { name, text, values } : { text, values }))
    } catch (error) {
      throw unavailableOr(error)
    } finally {
      stop?.()
    }
  }

  /**
   * A read for DATABASE_READ_URL's server when there is one; while it cannot be reached, the
   * primary answers instead, and the read server is tried again after READ_RETRY_MS.
   */
  async read<R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    const replica = this.pools.read
    if (replica !== null && Date.now() >= this.readUnavailableUntil) {
      try {
        return await this.query<R>(name, text, values, replica)
      } catch (error) {
        if (!(error instanceof StoreUnavailableError)) throw error
        this.readUnavailableUntil = Date.now() + READ_RETRY_MS
        this.log.warn({ err: error, retryInMs: READ_RETRY_MS }, 'the read database is unavailable; reading from the primary')
      }
    }
    return this.query<R>(name, text, values)
  }

  /** Ready only while a writable primary answers: a standby serves reads but no write. */
  async ping(): Promise<void> {
    const result = await this.query<{ standby: boolean }>('ping', 'SELECT pg_is_in_recovery() AS standby', [])
    if (result.rows[0]?.standby !== false)
      throw new StoreUnavailableError('the database is a standby (read-only): no writable primary answers')
  }

  /** Pool use and query latency by pool (`primary`, and `read` with DATABASE_READ_URL), for /metrics. */
  registerMetrics(registry: Registry): void {
    const pools = Object.entries({ primary: this.pools.primary, read: this.pools.read }).filter(
      (entry): entry is [string, pg.Pool] => entry[1] !== null,
    )
    const poolGauge = (name: string, help: string, read: (pool: pg.Pool) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['pool'],
        registers: [registry],
        collect() {
          for (const [label, pool] of pools) this.set({ pool: label }, read(pool))
        },
      })
    poolGauge('db_pool_connections', 'Connections the pool holds, busy or idle', (pool) => pool.totalCount)
    poolGauge('db_pool_idle_connections', 'Connections of the pool waiting for work', (pool) => pool.idleCount)
    poolGauge('db_pool_waiting_requests', 'Queries waiting for a free connection', (pool) => pool.waitingCount)
    this.queryDuration = new Histogram({
      name: 'db_query_duration_seconds',
      help: 'Time of each database query, by operation and pool, including the wait for a connection',
      labelNames: ['operation', 'pool'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    })
  }

  private async endPools(): Promise<void> {
    await Promise.all([this.pools.primary.end(), this.pools.read?.end()])
  }

  /** Ends the pools; the roles' pending writes are flushed first by the store. */
  close(): Promise<void> {
    return this.endPools()
  }
}
