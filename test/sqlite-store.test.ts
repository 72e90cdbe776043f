import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import type BetterSqlite3 from 'better-sqlite3'
import { Registry } from 'prom-client'
import { StoreUnavailableError } from '../src/store/store.js'
import { Database } from '../src/store/sqlite/driver.js'
import { SqliteStore } from '../src/store/sqlite/store.js'
import type { NewPlant } from '../src/store/store.js'
import { tempFolder } from '../support/service.js'

/** A create's outcome as a yes or no: it answers the new plant's version, null when the id exists. */
const wasCreated = (version: number | null) => version !== null

describe("the SQLite store's group commit, on a real file", () => {
  const folder = tempFolder()
  let store: SqliteStore
  before(() => {
    store = SqliteStore.open(join(folder.path, 'store.db'))
  })
  after(async () => {
    await store.close()
    folder.remove()
  })

  const plant = (id: number, name: string | null = `plant ${id}`): NewPlant =>
    ({ id: BigInt(id), owner: 'grouper', name, tag: null }) as NewPlant

  test('writes of one turn are committed together and each learns its own outcome', async () => {
    const outcomes = await Promise.all([
      store.plants.create(plant(1)).then(wasCreated),
      store.plants.create(plant(2)).then(wasCreated),
      store.plants.create(plant(1, 'duplicate')).then(wasCreated),
      store.plants.delete(2n, 'grouper'),
      store.plants.delete(3n, 'grouper'),
    ])
    assert.deepEqual(outcomes, [true, true, false, true, false])
    const page = await store.plants.list({ owner: 'grouper', tag: null, after: null, upTo: null }, 10)
    assert.deepEqual(page, { json: '{"name":"plant 1"}', count: 1, lastId: 1n })
  })

  test('a write that fails does not take the others of its batch down with it', async () => {
    const outcomes = await Promise.allSettled([
      store.plants.create(plant(10)).then(wasCreated),
      store.plants.create(plant(11, null)).then(wasCreated),
      store.plants.create(plant(12)).then(wasCreated),
    ])
    assert.equal(outcomes[0]?.status, 'fulfilled')
    assert.equal(outcomes[1]?.status, 'rejected')
    assert.equal(outcomes[2]?.status, 'fulfilled')
    const page = await store.plants.list({ owner: 'grouper', tag: null, after: 9n, upTo: null }, 10)
    assert.deepEqual(page, { json: '{"name":"plant 10"},{"name":"plant 12"}', count: 2, lastId: 12n })
  })

  test('a write made in the next turn of the event loop joins the commit of the turn before', async () => {
    const before = { ...store.commitCounts }
    const first = store.plants.create(plant(20)).then(wasCreated)
    await new Promise((resolve) => setImmediate(resolve))
    const second = store.plants.create(plant(21)).then(wasCreated)
    assert.deepEqual(await Promise.all([first, second]), [true, true])
    assert.deepEqual(store.commitCounts, { transactions: before.transactions + 1, writes: before.writes + 2 })
  })

  test('a write two turns later has a commit of its own, and /metrics counts commits and their writes', async () => {
    const registry = new Registry()
    store.registerMetrics(registry)
    const before = { ...store.commitCounts }
    const first = store.plants.create(plant(30)).then(wasCreated)
    await new Promise((resolve) => setImmediate(resolve))
    await new Promise((resolve) => setImmediate(resolve))
    const second = store.plants.create(plant(31)).then(wasCreated)
    assert.deepEqual(await Promise.all([first, second]), [true, true])
    assert.deepEqual(store.commitCounts, { transactions: before.transactions + 2, writes: before.writes + 2 })
    const text = await registry.metrics()
    assert.match(text, new RegExp(`^db_commits_total ${store.commitCounts.transactions}$`, 'm'))
    assert.match(text, new RegExp(`^db_committed_writes_total ${store.commitCounts.writes}$`, 'm'))
  })
})

describe("the SQLite store's page cache", () => {
  const folder = tempFolder()
  const path = join(folder.path, 'cache.db')
  let store: SqliteStore
  /** A second connection to the same file, as another worker process has. */
  let other: SqliteStore
  before(() => {
    store = SqliteStore.open(path)
    other = SqliteStore.open(path)
  })
  after(async () => {
    await Promise.all([store.close(), other.close()])
    folder.remove()
  })

  const firstPage = (owner: string) => store.plants.list({ owner, tag: null, after: null, upTo: null }, 20)
  const newPlant = (id: number, owner: string): NewPlant => ({ id: BigInt(id), owner, name: `plant ${id}`, tag: null })

  for (const [writerName, writer, id] of [
    ['this store', () => store, 100],
    ['another connection', () => other, 200],
  ] as const) {
    test(`a page read again after a create and a delete by ${writerName} shows them`, async () => {
      const owner = `owner of ${id}`
      assert.equal((await firstPage(owner)).count, 0)
      assert.equal((await firstPage(owner)).count, 0, 'now cached')
      assert.equal(await writer().plants.create(newPlant(id, owner)).then(wasCreated), true)
      assert.deepEqual(await firstPage(owner), { json: `{"name":"plant ${id}"}`, count: 1, lastId: BigInt(id) })
      assert.equal(await writer().plants.delete(BigInt(id), owner), true)
      assert.equal((await firstPage(owner)).count, 0)
    })
  }

  test('owners whose names and tags could run together each get their own page', async () => {
    await store.plants.create({ id: 300n, owner: 'a|b', name: 'of a|b', tag: null }).then(wasCreated)
    await store.plants.create({ id: 301n, owner: 'a', name: 'of a, tagged b', tag: 'b' }).then(wasCreated)
    const ofAB = await store.plants.list({ owner: 'a|b', tag: null, after: null, upTo: null }, 20)
    const ofATaggedB = await store.plants.list({ owner: 'a', tag: 'b', after: null, upTo: null }, 20)
    assert.equal(ofAB.json, '{"name":"of a|b"}')
    assert.equal(ofATaggedB.json, '{"name":"of a, tagged b","tag":"b"}')
  })
})

describe('the SQLite store while another connection holds the write lock', () => {
  const folder = tempFolder()
  const path = join(folder.path, 'locked.db')
  let store: SqliteStore
  /** Another process's connection, as a worker of WORKERS has. */
  let holder: BetterSqlite3.Database
  before(() => {
    store = SqliteStore.open(path)
    holder = new Database(path)
  })
  after(async () => {
    holder.close()
    await store.close()
    folder.remove()
  })

  const owner = 'waiter'
  const list = () => store.plants.list({ owner, tag: null, after: null, upTo: null }, 20)

  test('a write waits for the lock without blocking the event loop, then commits', async () => {
    holder.prepare('BEGIN IMMEDIATE').run()
    const created = store.plants.create({ id: 1n, owner, name: 'patient', tag: null }).then(wasCreated)
    const started = performance.now()
    await new Promise((resolve) => setTimeout(resolve, 200))
    assert.ok(performance.now() - started < 1_000, 'timers still run while the write waits')
    assert.equal((await list()).count, 0, 'reads are answered meanwhile')
    holder.prepare('COMMIT').run()
    assert.equal(await created, true)
    assert.equal((await list()).json, '{"name":"patient"}')
  })

  test('a statement outside the group commit (a token made) also waits without blocking the event loop', async () => {
    holder.prepare('BEGIN IMMEDIATE').run()
    // Timed from before the call: a wait inside SQLite would block the call itself.
    const started = performance.now()
    const made = store.tokens.create({ hash: 'a'.repeat(64), subject: owner, scopes: ['plants:read'], name: null, expiresAt: null })
    await new Promise((resolve) => setTimeout(resolve, 200))
    assert.ok(performance.now() - started < 1_000, 'timers still run while the statement waits')
    holder.prepare('COMMIT').run()
    const id = await made
    assert.equal((await store.tokens.findByHash('a'.repeat(64)))?.id, id)
  })

  test('a statement outside the group commit that cannot get the lock within 5 s fails as unavailable', async () => {
    holder.prepare('BEGIN IMMEDIATE').run()
    try {
      const started = performance.now()
      const made = store.tokens.create({ hash: 'b'.repeat(64), subject: owner, scopes: ['plants:read'], name: null, expiresAt: null })
      await assert.rejects(made, StoreUnavailableError)
      assert.ok(performance.now() - started >= 4_900)
    } finally {
      holder.prepare('COMMIT').run()
    }
    assert.equal(await store.tokens.findByHash('b'.repeat(64)), null, 'the token was not made')
  })

  test('a write that cannot get the lock within 5 s fails as unavailable, and nothing is written', async () => {
    holder.prepare('BEGIN IMMEDIATE').run()
    try {
      const started = performance.now()
      await assert.rejects(store.plants.create({ id: 2n, owner, name: 'impatient', tag: null }).then(wasCreated), StoreUnavailableError)
      assert.ok(performance.now() - started >= 4_900)
    } finally {
      holder.prepare('COMMIT').run()
    }
    assert.equal((await list()).count, 1)
    assert.equal(
      await store.plants.create({ id: 3n, owner, name: 'later', tag: null }).then(wasCreated),
      true,
      'writes go on once the lock is free',
    )
  })
})

test('the SQLite store runs on better-sqlite3 13 where Node-API 10 exists, and on 12 before it', () => {
  const require = createRequire(import.meta.url)
  const expected =
    Number(process.versions.napi) >= 10 ? { name: 'better-sqlite3-13', major: '13' } : { name: 'better-sqlite3', major: '12' }
  assert.equal(Database, require(expected.name))
  assert.equal((require(`${expected.name}/package.json`) as { version: string }).version.split('.')[0], expected.major)
  const db = new Database(':memory:')
  try {
    assert.equal(db.prepare('SELECT 1 + 1 AS two').pluck().get(), 2)
  } finally {
    db.close()
  }
})
