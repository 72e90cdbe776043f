import { existsSync } from 'node:fs'
import type { DatabaseConfig } from '../config/config.js'
import { type AppliedMigration, type MigrationStatus, migrationStatus } from '../store/shared/migrations.js'

/** The migrations a database records, read without changing it (a missing SQLite file records none). */
async function appliedMigrations(database: DatabaseConfig): Promise<AppliedMigration[]> {
  if (database.kind === 'sqlite') {
    if (!existsSync(database.path)) return []
    const { Database } = await import('../store/sqlite/driver.js')
    const db = new Database(database.path, { readonly: true, fileMustExist: true })
    try {
      const table = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'").get()
      return table === undefined ? [] : (db.prepare('SELECT version, name FROM schema_migrations').all() as AppliedMigration[])
    } finally {
      db.close()
    }
  }
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: database.url, connectionTimeoutMillis: database.connectTimeoutMs })
  await client.connect()
  try {
    const { rows } = await client.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")
    if (!rows[0]?.present) return []
    return (await client.query<AppliedMigration>('SELECT version, name FROM schema_migrations')).rows
  } finally {
    await client.end()
  }
}

/** `plantstore migrate --status`: what is applied and what is pending, for a deploy pipeline to read. */
export async function readMigrationStatus(database: DatabaseConfig): Promise<MigrationStatus> {
  return migrationStatus(database.kind, await appliedMigrations(database))
}
