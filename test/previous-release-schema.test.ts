import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { STORE_KINDS, type TestDatabase, freshDatabase, runOnDatabase } from '../support/databases.js'
import { runCli } from '../support/service.js'
import { knownMigrations } from '../src/store/shared/migrations.js'

/**
 * 30e0bae's create, word for word: it joins the subscriptions without locking them, so a
 * subscription deleted after its snapshot is still written an event. test/rolling-upgrade.test.ts
 * runs the real build; this pins the one statement, without its install.
 */
const PREVIOUS_CREATE =
  'WITH created AS (INSERT INTO plants (id, owner, name, tag) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING RETURNING id, owner), ' +
  "events AS (INSERT INTO webhook_deliveries (subscription_id, event, plant_id, body, trace_parent) SELECT s.id, 'newPlant', c.id, $5, $6 FROM created c " +
  "JOIN webhook_subscriptions s ON s.disabled_at IS NULL AND (s.all_plants OR s.subject = c.owner) AND (' ' || s.events || ' ') LIKE '% newPlant %') " +
  'SELECT id FROM created'

const connect = async (db: TestDatabase) => {
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  return client
}

/** Waits, bounded, until the backend `pid` waits for a lock. */
async function waitUntilBlocked(db: TestDatabase, pid: number): Promise<void> {
  const since = Date.now()
  while (Date.now() - since < 10_000) {
    const result = await runOnDatabase(db, "SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'", [pid])
    if (result.rowCount === 1) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`backend ${pid} never waited for a lock`)
}

/**
 * Makes a subscription, then runs 30e0bae's create while a delete of it is under way and commits
 * the delete: the create's snapshot still holds the subscription. Resolves with the create's error.
 */
async function createRacingDelete(db: TestDatabase, subscription: string, plant: number): Promise<Error | null> {
  await runOnDatabase(
    db,
    "INSERT INTO webhook_subscriptions (id, subject, all_plants, url, secret, events) VALUES ($1, 'alice', true, 'http://127.0.0.1:9/', 'whsec_x', 'newPlant')",
    [subscription],
  )
  const deleter = await connect(db)
  const creator = await connect(db)
  try {
    await deleter.query('BEGIN')
    await deleter.query('DELETE FROM webhook_subscriptions WHERE id = $1', [subscription])
    const pid = (await creator.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid
    const create = creator.query(PREVIOUS_CREATE, [String(plant), 'alice', 'fern', null, `{"id":"${plant}"}`, null])
    const settled = create.then(
      () => null,
      (error: Error) => error,
    )
    await waitUntilBlocked(db, pid)
    await deleter.query('COMMIT')
    return await settled
  } finally {
    await deleter.end()
    await creator.end()
  }
}

for (const kind of STORE_KINDS.filter((kind) => kind === 'postgres')) {
  describe("the previous release's statements on HEAD's PostgreSQL schema", () => {
    let db: TestDatabase
    before(async () => {
      db = await freshDatabase(kind)
      const migrated = await runCli(['migrate'], { DATABASE_URL: db.url })
      assert.equal(migrated.code, 0, migrated.stderr)
    })
    after(() => db.drop())

    test("30e0bae's create racing a subscription's delete succeeds, and writes no event for the deleted subscription", async () => {
      const error = await createRacingDelete(db, 'sub_going', 7001)
      assert.equal(error, null, `the create failed: ${error?.message}`)
      const plants = await runOnDatabase(db, "SELECT 1 FROM plants WHERE id = 7001 AND owner = 'alice'")
      assert.equal(plants.rowCount, 1, 'the plant was written')
      const events = await runOnDatabase(db, "SELECT 1 FROM webhook_deliveries WHERE subscription_id = 'sub_going'")
      assert.equal(events.rowCount, 0, 'no event outlives its subscription')
    })

    test("30e0bae's create beside a live subscription still writes its event", async () => {
      await runOnDatabase(
        db,
        "INSERT INTO webhook_subscriptions (id, subject, all_plants, url, secret, events) VALUES ('sub_staying', 'bob', false, 'http://127.0.0.1:9/', 'whsec_x', 'newPlant')",
      )
      const result = await runOnDatabase(db, PREVIOUS_CREATE, ['7002', 'bob', 'moss', null, '{"id":"7002"}', null])
      assert.equal(result.rowCount, 1)
      const events = await runOnDatabase(
        db,
        "SELECT plant_id::text AS plant_id FROM webhook_deliveries WHERE subscription_id = 'sub_staying'",
      )
      assert.deepEqual(
        events.rows.map((row: { plant_id: string }) => row.plant_id),
        ['7002'],
      )
    })
  })
}

for (const kind of STORE_KINDS.filter((kind) => kind === 'postgres')) {
  describe('the previous release between two migration files (a migrate stopped by a lock, or under way)', () => {
    let db: TestDatabase
    before(async () => {
      db = await freshDatabase(kind)
    })
    after(() => db.drop())

    test("after each file, 30e0bae's create racing a subscription's delete succeeds", async () => {
      let plant = 7100
      for (const migration of knownMigrations('postgres')) {
        // As migrate applies it: the file and its record in one transaction.
        await runOnDatabase(
          db,
          `BEGIN; CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now()); ${migration.sql}; INSERT INTO schema_migrations (version, name) VALUES (${migration.version}, '${migration.name}'); COMMIT`,
        )
        if (migration.version < 9) continue
        plant += 1
        const error = await createRacingDelete(db, `sub_${migration.version}`, plant)
        assert.equal(error, null, `after ${migration.name}, the create failed: ${error?.message}`)
      }
    })
  })
}

/** Applies the files up to `last` as migrate does: each file and its record in one transaction. */
async function migrateUpTo(db: TestDatabase, last: number): Promise<void> {
  for (const migration of knownMigrations('postgres').filter((migration) => migration.version <= last)) {
    await runOnDatabase(
      db,
      `BEGIN; CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now()); ${migration.sql}; INSERT INTO schema_migrations (version, name) VALUES (${migration.version}, '${migration.name}'); COMMIT`,
    )
  }
}

/** Waits, bounded, until some other backend of the database waits for a lock. */
async function waitUntilAnyBlocked(db: TestDatabase): Promise<void> {
  const since = Date.now()
  while (Date.now() - since < 10_000) {
    const result = await runOnDatabase(
      db,
      "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'",
    )
    if (result.rowCount !== 0) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error('no backend waited for a lock')
}

for (const kind of STORE_KINDS.filter((kind) => kind === 'postgres')) {
  describe("HEAD's migrate while 30e0bae writes an event for a subscription being deleted", () => {
    let db: TestDatabase
    before(async () => {
      db = await freshDatabase(kind)
      await migrateUpTo(db, 8)
    })
    after(() => db.drop())

    test('migrate waits for the create, then removes its orphan event and adds the foreign key: exit 0', async () => {
      await runOnDatabase(
        db,
        "INSERT INTO webhook_subscriptions (id, subject, all_plants, url, secret, events) VALUES ('sub_orphaned', 'alice', true, 'http://127.0.0.1:9/', 'whsec_x', 'newPlant')",
      )
      const deleter = await connect(db)
      const creator = await connect(db)
      try {
        // The create's snapshot holds the subscription; its delete commits before the create does.
        await deleter.query('BEGIN')
        await deleter.query("DELETE FROM webhook_subscriptions WHERE id = 'sub_orphaned'")
        await creator.query('BEGIN')
        await creator.query(PREVIOUS_CREATE, ['7201', 'alice', 'fern', null, '{"id":"7201"}', null])
        await deleter.query('COMMIT')
        const migrating = runCli(['migrate'], { DATABASE_URL: db.url })
        await waitUntilAnyBlocked(db)
        await creator.query('COMMIT')
        const migrated = await migrating
        assert.equal(migrated.code, 0, migrated.stderr)
      } finally {
        await deleter.end()
        await creator.end()
      }
      const orphans = await runOnDatabase(db, "SELECT 1 FROM webhook_deliveries WHERE subscription_id = 'sub_orphaned'")
      assert.equal(orphans.rowCount, 0, 'no event outlives its subscription')
      const plants = await runOnDatabase(db, 'SELECT 1 FROM plants WHERE id = 7201')
      assert.equal(plants.rowCount, 1, 'the acknowledged create is kept')
    })
  })
}

for (const kind of STORE_KINDS.filter((kind) => kind === 'postgres')) {
  describe("30e0bae's redeliver on HEAD's schema", () => {
    let db: TestDatabase
    before(async () => {
      db = await freshDatabase(kind)
      const migrated = await runCli(['migrate'], { DATABASE_URL: db.url })
      assert.equal(migrated.code, 0, migrated.stderr)
    })
    after(() => db.drop())

    test('starts a new round of retries for HEAD: the attempts it zeroes count from a round_start of 0', async () => {
      await runOnDatabase(
        db,
        "INSERT INTO webhook_subscriptions (id, subject, all_plants, url, secret, events) VALUES ('sub_round', 'alice', true, 'http://127.0.0.1:9/', 'whsec_x', 'newPlant')",
      )
      // An event HEAD gave up on after a round of 4 attempts that began after 4 earlier ones.
      await runOnDatabase(
        db,
        "INSERT INTO webhook_deliveries (subscription_id, event, plant_id, body, state, attempts, round_start, finished_at) VALUES ('sub_round', 'newPlant', 1, '{}', 'given_up', 8, 4, now())",
      )
      // 30e0bae's redeliver of one message, word for word but for its parameters.
      await runOnDatabase(
        db,
        "UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_attempt_at = now(), finished_at = NULL WHERE subscription_id = 'sub_round'",
      )
      const row = await runOnDatabase(db, "SELECT attempts, round_start FROM webhook_deliveries WHERE subscription_id = 'sub_round'")
      assert.deepEqual(row.rows, [{ attempts: 0, round_start: '0' }])
    })
  })
}
