import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { pendingMigrations } from '../shared/migrations.js'
import { Database } from './driver.js'

/** How long SQLite may wait for a lock held by another connection before the request fails (503). */
export const LOCK_WAIT_MS = 5_000

/** Opens the file (and its folder) in WAL mode with every commit synced to disk. */
export function openSqliteDatabase(path: string): BetterSqlite3.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
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
    const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[])
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
    for (const migration of pendingMigrations('sqlite', applied)) {
      db.exec(migration.sql)
      record.run(migration.version, migration.name, Date.now())
    }
  }).immediate()
}
