import type pg from 'pg'
import type { StoreLog } from '../store.js'

/** How long a migration waits for a table lock, how often it is tried, and the pause between tries. */
const MIGRATION_LOCK_TIMEOUT = '3s'
const MIGRATION_ATTEMPTS = 4
const MIGRATION_RETRY_PAUSE_MS = 1_000
/** SQLSTATEs lock_not_available (a lock_timeout ran out) and deadlock_detected. */
const LOCK_NOT_AVAILABLE = '55P03'
const DEADLOCK_DETECTED = '40P01'

/** The first line of a file that must run outside a transaction (one statement: CREATE INDEX CONCURRENTLY). */
const NO_TRANSACTION = /^-- plantstore:no-transaction\s*$/m
/** The index a no-transaction file builds, when it is one: CREATE [UNIQUE] INDEX CONCURRENTLY IF NOT EXISTS name. */
const CONCURRENT_INDEX = /CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+IF\s+NOT\s+EXISTS\s+("?)([a-z_][a-z0-9_]*)\1/i

export interface MigrationFile {
  version: number
  name: string
  sql: string
}

/** The file and its record in one transaction. */
async function inTransaction(client: pg.PoolClient | pg.Client, migration: MigrationFile): Promise<void> {
  try {
    await client.query('BEGIN')
    await client.query(`SET LOCAL lock_timeout = '${MIGRATION_LOCK_TIMEOUT}'`)
    await client.query('SET LOCAL statement_timeout = 0')
    await client.query(migration.sql)
    await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name])
    await client.query('COMMIT')
  } catch (error) {
    await client.query('ROLLBACK')
    throw error
  }
}

/**
 * A file marked plantstore:no-transaction: its one statement alone, then its record. A
 * concurrent index build that failed (a lock timeout, a crash) leaves its index INVALID, which
 * IF NOT EXISTS would then keep: it is dropped first, so the file can be run again until it holds.
 */
async function outsideTransaction(client: pg.PoolClient | pg.Client, migration: MigrationFile): Promise<void> {
  await client.query(`SET lock_timeout = '${MIGRATION_LOCK_TIMEOUT}'`)
  await client.query('SET statement_timeout = 0')
  try {
    const index = CONCURRENT_INDEX.exec(migration.sql)?.[2]
    if (index !== undefined) {
      const invalid = await client.query(
        'SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid',
        [index],
      )
      if (invalid.rowCount !== 0) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS "${index}"`)
    }
    await client.query(migration.sql)
    await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name])
  } finally {
    await client.query('RESET lock_timeout')
    await client.query('RESET statement_timeout')
  }
}

/**
 * Applies one migration file and records it, in a transaction of its own (or, marked
 * plantstore:no-transaction, outside one); a lock timeout or a deadlock rolls it back, and it
 * is tried again, up to MIGRATION_ATTEMPTS times.
 */
export async function applyMigration(client: pg.PoolClient | pg.Client, migration: MigrationFile, log: StoreLog): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await (NO_TRANSACTION.test(migration.sql) ? outsideTransaction : inTransaction)(client, migration)
      return
    } catch (error) {
      const code = (error as { code?: unknown }).code
      if (code !== LOCK_NOT_AVAILABLE && code !== DEADLOCK_DETECTED) throw error
      if (attempt === MIGRATION_ATTEMPTS) {
        throw new Error(
          `migration ${migration.name} could not take its locks in ${attempt} tries (each waiting up to ${MIGRATION_LOCK_TIMEOUT}): ` +
            'another session holds a lock on a table it changes (see pg_locks); it was rolled back, the migrations before it are applied',
          { cause: error },
        )
      }
      log.warn(
        { migration: migration.name, attempt, err: error },
        'a migration could not take its locks; it was rolled back and is tried again',
      )
      await new Promise((resolve) => setTimeout(resolve, MIGRATION_RETRY_PAUSE_MS))
    }
  }
}
