import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { STORE_KINDS, type TestDatabase, freshDatabase, runOnDatabase } from '../support/databases.js'
import { REPO_ROOT, runCli, startService } from '../support/service.js'

/** Undoes migration 011 by hand: the database of an instance one release behind. */
const UNDO_011 =
  'DROP TRIGGER webhook_deliveries_skip_gone_subscription ON webhook_deliveries; ' +
  'DROP FUNCTION webhook_deliveries_skip_gone_subscription(); DELETE FROM schema_migrations WHERE version = 11'

/**
 * squawk's own binary package (an optional dependency: the registry this project installs from
 * holds only linux-x64, so the squawk-cli wrapper, which names every platform's, cannot be locked).
 */
const squawk = join(REPO_ROOT, 'node_modules', '@squawk-cli', `${process.platform}-${process.arch}`, 'bin', 'squawk')
const noSquawk = existsSync(squawk) ? false : `squawk has no binary package installed for ${process.platform}-${process.arch}`
if (noSquawk && process.env.CI === 'true') throw new Error(`${noSquawk}, and CI=true`)

describe('the PostgreSQL migrations, checked by squawk', { skip: noSquawk }, () => {
  test('squawk finds no violation in migrations/postgres (waivers only on the line before their statement)', async () => {
    const outcome = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        squawk,
        // migrate wraps the pending files in one transaction.
        ['--pg-version=15', '--assume-in-transaction', '--reporter=gcc', 'migrations/postgres/*.sql'],
        { cwd: REPO_ROOT, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
      )
    })
    assert.equal(outcome.output.trim(), '')
    assert.equal(outcome.code, 0)
  })
})

for (const kind of STORE_KINDS.filter((kind) => kind === 'postgres')) {
  describe('plantstore migrate against locks held by an operator', () => {
    let db: TestDatabase
    before(async () => {
      db = await freshDatabase(kind)
      const migrated = await runCli(['migrate'], { DATABASE_URL: db.url })
      assert.equal(migrated.code, 0, migrated.stderr)
      await runOnDatabase(db, UNDO_011)
    })
    after(() => db.drop())

    test("behind an operator's LOCK TABLE, migrate gives up after a few tries: exit 1, one line naming the migration, which is not applied", async () => {
      const operator = new pg.Client({ connectionString: db.url })
      await operator.connect()
      try {
        await operator.query('BEGIN')
        await operator.query('LOCK TABLE webhook_deliveries IN ACCESS EXCLUSIVE MODE')
        const started = performance.now()
        const migrated = await runCli(['migrate'], { DATABASE_URL: db.url })
        const tookMs = performance.now() - started
        assert.equal(migrated.code, 1, migrated.stderr)
        const lines = migrated.stderr.trim().split('\n')
        assert.equal(lines.length, 1, migrated.stderr)
        assert.match(
          lines[0]!,
          /^plantstore: .*migration 011_previous_release_events\.sql could not take its locks in 4 tries \(each waiting up to 3s\)/,
        )
        assert.ok(tookMs < 28_000, `it gave up in ${tookMs} ms`)
      } finally {
        await operator.query('ROLLBACK')
        await operator.end()
      }
      const applied = await runOnDatabase(db, 'SELECT 1 FROM schema_migrations WHERE version = 11')
      assert.equal(applied.rowCount, 0, 'nothing was applied')
    })

    test('once the lock is released, migrate applies the migration', async () => {
      const migrated = await runCli(['migrate'], { DATABASE_URL: db.url })
      assert.equal(migrated.code, 0, migrated.stderr)
      const applied = await runOnDatabase(db, 'SELECT 1 FROM schema_migrations WHERE version = 11')
      assert.equal(applied.rowCount, 1)
    })
  })
}

describe('a database migrated by a newer release', () => {
  for (const kind of STORE_KINDS) {
    test(`${kind}: ${kind === 'sqlite' ? 'migrate refuses it with one line naming the unknown migration, exit 1' : 'the service serves and logs one warning naming the unknown migration'}`, async () => {
      const db = await freshDatabase(kind)
      try {
        const migrated = await runCli(['migrate'], { DATABASE_URL: db.url })
        assert.equal(migrated.code, 0, migrated.stderr)
        const future = "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '999_from_the_future.sql', 0)"
        if (kind === 'sqlite') {
          const { Database } = await import('../src/store/sqlite/driver.js')
          const sqlite = new Database(db.url.slice('sqlite:'.length))
          sqlite.exec(future)
          sqlite.close()
          const refused = await runCli(['migrate'], { DATABASE_URL: db.url })
          assert.equal(refused.code, 1, refused.stderr)
          const lines = refused.stderr.trim().split('\n')
          assert.equal(lines.length, 1, refused.stderr)
          assert.match(lines[0]!, /^plantstore: .*migrated by a newer release \(999_from_the_future\.sql/)
          return
        }
        await runOnDatabase(db, future.replace(', 0)', ', now())'))
        const service = await startService({ DATABASE_URL: db.url })
        try {
          const ready = await fetch(`${service.url}/readyz`)
          assert.equal(ready.status, 200)
          const warned = (log: string) => log.split('\n').filter((line) => line.includes('999_from_the_future.sql'))
          assert.equal(warned(await service.waitForLog((log) => warned(log).length > 0)).length, 1, service.stdout())
        } finally {
          await service.stop()
        }
      } finally {
        await db.drop()
      }
    })
  }
})

describe('plantstore migrate --status', () => {
  for (const kind of STORE_KINDS) {
    test(`${kind}: one line per migration, pending then applied; exit 1 while any is pending, and nothing is made`, async () => {
      const db = await freshDatabase(kind)
      try {
        const files = readdirSync(join(REPO_ROOT, 'migrations', kind)).filter((file) => file.endsWith('.sql'))
        const before = await runCli(['migrate', '--status'], { DATABASE_URL: db.url })
        assert.equal(before.code, 1, before.stderr)
        assert.deepEqual(before.stdout.trim().split('\n'), files.map((file) => `pending\t${file}`).sort())
        if (kind === 'sqlite') assert.equal(existsSync(db.url.slice('sqlite:'.length)), false, 'no database file made')
        else assert.equal((await runOnDatabase(db, "SELECT to_regclass('schema_migrations') IS NULL AS absent")).rows[0].absent, true)
        assert.equal((await runCli(['migrate'], { DATABASE_URL: db.url })).code, 0)
        const after = await runCli(['migrate', '--status'], { DATABASE_URL: db.url })
        assert.equal(after.code, 0, after.stderr)
        assert.deepEqual(after.stdout.trim().split('\n'), files.map((file) => `applied\t${file}`).sort())
        const extra = await runCli(['migrate', '--status', 'now'], { DATABASE_URL: db.url })
        assert.equal(extra.code, 2)
      } finally {
        await db.drop()
      }
    })
  }
})

for (const kind of STORE_KINDS.filter((kind) => kind === 'postgres')) {
  describe('an instance that starts while another migrates', () => {
    test('migrate waits for the migration lock longer than PG_STATEMENT_TIMEOUT_MS, then migrates', async () => {
      const db = await freshDatabase(kind)
      const migrating = new pg.Client({ connectionString: db.url })
      await migrating.connect()
      try {
        // The advisory lock an instance holds while it migrates (src/store/postgres/database.ts).
        await migrating.query('SELECT pg_advisory_lock(7250001)')
        const migrate = runCli(['migrate'], { DATABASE_URL: db.url, PG_STATEMENT_TIMEOUT_MS: '500' })
        await new Promise((resolve) => setTimeout(resolve, 2_500))
        await migrating.query('SELECT pg_advisory_unlock(7250001)')
        const migrated = await migrate
        assert.equal(migrated.code, 0, migrated.stderr)
        assert.equal((await runOnDatabase(db, 'SELECT 1 FROM schema_migrations')).rowCount! > 0, true)
      } finally {
        await migrating.end()
        await db.drop()
      }
    })
  })
}

for (const kind of STORE_KINDS.filter((kind) => kind === 'postgres')) {
  describe('plantstore migrate on a database it cannot migrate or read', () => {
    test('a read-only database (a standby): migrate exits 1 with one line, nothing applied', async () => {
      const db = await freshDatabase(kind)
      try {
        const name = new URL(db.url).pathname.slice(1)
        await runOnDatabase(db, `ALTER DATABASE ${name} SET default_transaction_read_only = on`)
        const migrated = await runCli(['migrate'], { DATABASE_URL: db.url })
        assert.equal(migrated.code, 1, migrated.stdout)
        const lines = migrated.stderr.trim().split('\n')
        assert.equal(lines.length, 1, migrated.stderr)
        assert.match(lines[0]!, /^plantstore: .*read-only.*pending/)
        assert.doesNotMatch(migrated.stdout, /up to date/)
      } finally {
        await db.drop()
      }
    })

    test('--status on a database that does not answer exits 3, not 1 (pending)', async () => {
      const status = await runCli(['migrate', '--status'], {
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
        PG_CONNECT_TIMEOUT_MS: '2000',
      })
      assert.equal(status.code, 3, status.stderr)
      assert.equal(status.stderr.trim().split('\n').length, 1, status.stderr)
    })
  })
}

describe('migrate and --status on a database a newer release migrated', () => {
  for (const kind of STORE_KINDS) {
    test(`${kind}: --status lists the bare name as unknown${kind === 'sqlite' ? ', exit 4 (this release refuses the file)' : ', exit 0'}; migrate says so`, async () => {
      const db = await freshDatabase(kind)
      try {
        const migrated = await runCli(['migrate'], { DATABASE_URL: db.url })
        assert.equal(migrated.code, 0, migrated.stderr)
        assert.equal(migrated.stdout.trim(), 'the database schema is up to date')
        const future = "INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '999_from_the_future.sql', 0)"
        if (kind === 'sqlite') {
          const { Database } = await import('../src/store/sqlite/driver.js')
          const sqlite = new Database(db.url.slice('sqlite:'.length))
          sqlite.exec(future)
          sqlite.close()
        } else await runOnDatabase(db, future.replace(', 0)', ', now())'))
        const status = await runCli(['migrate', '--status'], { DATABASE_URL: db.url })
        assert.equal(status.code, kind === 'sqlite' ? 4 : 0, status.stderr)
        assert.ok(status.stdout.split('\n').includes('unknown\t999_from_the_future.sql'), status.stdout)
        if (kind === 'postgres') {
          const again = await runCli(['migrate'], { DATABASE_URL: db.url })
          assert.equal(again.code, 0, again.stderr)
          assert.match(
            again.stdout.trim(),
            /^the database schema is up to date for this release; a newer release applied 999_from_the_future\.sql$/,
          )
        }
      } finally {
        await db.drop()
      }
    })
  }
})
