import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { STORE_KINDS, type TestDatabase, freshDatabase } from '../support/databases.js'
import { applyMigration } from '../src/store/postgres/apply-migration.js'
import { SILENT_STORE_LOG } from '../src/store/store.js'

const INDEX_FILE = {
  version: 901,
  name: '901_thing_index.sql',
  sql: '-- plantstore:no-transaction\nCREATE INDEX CONCURRENTLY IF NOT EXISTS things_value ON things (value);\n',
}

for (const kind of STORE_KINDS.filter((kind) => kind === 'postgres')) {
  describe('a migration file marked plantstore:no-transaction (CREATE INDEX CONCURRENTLY)', () => {
    let db: TestDatabase
    let client: pg.Client
    before(async () => {
      db = await freshDatabase(kind)
      client = new pg.Client({ connectionString: db.url })
      await client.connect()
      await client.query(
        'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      )
      await client.query('CREATE TABLE things (id integer PRIMARY KEY, value integer NOT NULL)')
      await client.query('INSERT INTO things SELECT n, n % 7 FROM generate_series(1, 1000) n')
    })
    after(async () => {
      await client.end()
      await db.drop()
    })

    test('an INVALID index left by a failed run is dropped and built again; the file is recorded', async () => {
      // A concurrent build that fails (here: duplicates under UNIQUE) leaves its index INVALID.
      await assert.rejects(client.query('CREATE UNIQUE INDEX CONCURRENTLY things_value ON things (value)'))
      const invalid = await client.query(
        "SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'things_value' AND NOT i.indisvalid",
      )
      assert.equal(invalid.rowCount, 1, 'the failed build left an INVALID index')
      await applyMigration(client, INDEX_FILE, SILENT_STORE_LOG)
      const index = await client.query<{ valid: boolean; unique: boolean }>(
        "SELECT i.indisvalid AS valid, i.indisunique AS unique FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 'things_value'",
      )
      assert.deepEqual(index.rows, [{ valid: true, unique: false }])
      const recorded = await client.query('SELECT 1 FROM schema_migrations WHERE version = 901')
      assert.equal(recorded.rowCount, 1)
      const setting = await client.query<{ lock_timeout: string }>('SHOW lock_timeout')
      assert.equal(setting.rows[0]?.lock_timeout, '0', "the session's settings are as they were")
    })
  })
}
