import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import pg from 'pg'
import { tempFolder } from './service.js'

/**
 * The PostgreSQL server the suite makes its databases on; any database of it that the user may
 * create databases from. Each test file gets a database of its own, dropped at the end.
 */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

async function postgresReason(): Promise<string | null> {
  // A missing server refuses at once; a busy one (several test files starting together on a
  // loaded machine) may take seconds to accept, and must not silently drop the PostgreSQL half.
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 30_000 })
  try {
    await client.connect()
    await client.query('SELECT 1')
    return null
  } catch (error) {
    return (error as Error).message || String(error)
  } finally {
    await client.end().catch(() => {})
  }
}

/** Why the PostgreSQL half cannot run here, or null when it can. */
export const POSTGRES_UNAVAILABLE = await postgresReason()

export const ALL_STORE_KINDS = ['sqlite', 'postgres'] as const
export type StoreKind = (typeof ALL_STORE_KINDS)[number]

/** The stores the HTTP suite runs against: both, unless no PostgreSQL server answers. */
export const STORE_KINDS: StoreKind[] = ALL_STORE_KINDS.filter((kind) => kind === 'sqlite' || POSTGRES_UNAVAILABLE === null)

export interface TestDatabase {
  kind: StoreKind
  url: string
  drop(): Promise<void>
}

/** Runs SQL on the PostgreSQL server as its operator (connected to the admin database). */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** A database no other test run can see. */
export async function freshDatabase(kind: StoreKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const folder = tempFolder()
    return { kind, url: `sqlite:${join(folder.path, 'plantstore.db')}`, drop: async () => folder.remove() }
  }
  const name = `plantstore_test_${process.pid}_${randomBytes(4).toString('hex')}`
  await adminQuery(`CREATE DATABASE ${name}`)
  const url = new URL(POSTGRES_ADMIN_URL)
  url.pathname = `/${name}`
  return { kind, url: url.toString(), drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

/** Runs SQL on a test database (PostgreSQL only), for tests that act as the database operator. */
export async function runOnDatabase(db: TestDatabase, sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  try {
    return await client.query(sql, values)
  } finally {
    await client.end()
  }
}

/**
 * Copies a bulk load from the WAL into the database file here, as an operator would after one:
 * else the service's next commit would checkpoint tens of megabytes on its event loop.
 */
function checkpoint(sqlite: { pragma(source: string): unknown }): void {
  sqlite.pragma('wal_checkpoint(PASSIVE)')
}

/**
 * Writes `count` plants of one owner straight into the database (ids firstId, firstId+1, …),
 * for tests that need more plants than requests could make in reasonable time.
 */
export async function seedPlants(
  db: TestDatabase,
  plants: { owner: string; firstId: bigint; count: number; name: (i: number) => string },
): Promise<void> {
  const BATCH = 10_000
  if (db.kind === 'sqlite') {
    const { Database } = await import('../src/store/sqlite/driver.js')
    const sqlite = new Database(db.url.slice('sqlite:'.length))
    try {
      const insert = sqlite.prepare('INSERT INTO plants (id, owner, name, tag, created_at) VALUES (?, ?, ?, NULL, 0)')
      sqlite.transaction(() => {
        for (let i = 0; i < plants.count; i++) insert.run(plants.firstId + BigInt(i), plants.owner, plants.name(i))
      })()
      checkpoint(sqlite)
    } finally {
      sqlite.close()
    }
    return
  }
  const client = new pg.Client({ connectionString: db.url })
  await client.connect()
  try {
    for (let start = 0; start < plants.count; start += BATCH) {
      const size = Math.min(BATCH, plants.count - start)
      const ids = Array.from({ length: size }, (_, i) => String(plants.firstId + BigInt(start + i)))
      const names = Array.from({ length: size }, (_, i) => plants.name(start + i))
      await client.query('INSERT INTO plants (id, owner, name) SELECT id, $3, name FROM unnest($1::int8[], $2::text[]) AS t (id, name)', [
        ids,
        names,
        plants.owner,
      ])
    }
    // As after any bulk load: without fresh statistics the planner may sort a whole owner's rows.
    await client.query('ANALYZE plants')
  } finally {
    await client.end()
  }
}

/**
 * Writes `count` webhook events of one subscription (made here when missing) straight into a
 * SQLite database: `pending` ones due far in the future (no worker attempts them), or
 * `delivered` ones finished at `at`. For tests and benchmarks of a large outbox.
 */
export async function seedWebhookEvents(
  db: TestDatabase,
  events: { count: number; state: 'pending' | 'delivered'; at: number },
): Promise<void> {
  if (db.kind !== 'sqlite') throw new Error('seedWebhookEvents writes SQLite files only')
  const { Database } = await import('../src/store/sqlite/driver.js')
  const sqlite = new Database(db.url.slice('sqlite:'.length), { timeout: 10_000 })
  try {
    sqlite.transaction(() => {
      sqlite
        .prepare(
          'INSERT INTO webhook_subscriptions (id, subject, all_plants, url, secret, created_at) ' +
            "VALUES ('wh_seeded', 'seeded', 0, 'http://127.0.0.1:9/', 'whsec_seeded', ?) ON CONFLICT (id) DO NOTHING",
        )
        .run(events.at)
      const first = (sqlite.prepare('SELECT coalesce(max(id), 0) FROM webhook_deliveries').pluck().get() as number) + 1
      sqlite
        .prepare(
          'WITH RECURSIVE n (i) AS (SELECT @first UNION ALL SELECT i + 1 FROM n WHERE i < @first + @count - 1) ' +
            'INSERT INTO webhook_deliveries (subscription_id, event, message_id, plant_id, body, state, next_attempt_at, created_at, finished_at) ' +
            "SELECT 'wh_seeded', 'newPlant', 'msg_seeded_' || i, i, '{\"id\":' || i || ',\"name\":\"a seeded plant\"}', @state, " +
            "CASE WHEN @state = 'pending' THEN 9000000000000000 ELSE @at END, @at, CASE WHEN @state = 'pending' THEN NULL ELSE @at END FROM n",
        )
        .run({ first, count: events.count, state: events.state, at: events.at })
    })()
    checkpoint(sqlite)
  } finally {
    sqlite.close()
  }
}
