import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Registry } from 'prom-client'
import { PostgresStore } from '../src/store/postgres/store.js'
import type { NewPlant } from '../src/store/store.js'
import { STORE_KINDS, type TestDatabase, adminQuery, freshDatabase } from '../support/databases.js'

/** A create's outcome as a yes or no: it answers the new plant's version, null when the id exists. */
const wasCreated = (version: number | null) => version !== null

const plant = (id: number, name: string | null = `plant ${id}`): NewPlant =>
  ({ id: BigInt(id), owner: 'batcher', name, tag: null }) as NewPlant

const everyPlant = { owner: 'batcher', tag: null, after: null, upTo: null }

for (const kind of STORE_KINDS.filter((kind) => kind === 'postgres')) {
  describe(`the ${kind} store's batched writes, on a real server`, () => {
    let db: TestDatabase
    let store: PostgresStore
    const metrics = new Registry()
    before(async () => {
      db = await freshDatabase(kind)
      store = await PostgresStore.open({
        kind,
        url: db.url,
        poolMax: 4,
        statementTimeoutMs: 5000,
        connectTimeoutMs: 5000,
        readUrl: null,
        preparedStatements: true,
      })
      store.registerMetrics(metrics)
    })
    after(async () => {
      await store.close()
      await db.drop()
    })

    const statements = async (operation: string) => {
      const text = await metrics.metrics()
      const match = new RegExp(`^db_query_duration_seconds_count\\{operation="${operation}",pool="primary"\\} ([0-9]+)$`, 'm').exec(text)
      return Number(match?.[1] ?? 0)
    }

    test('creates of one turn are one INSERT; each learns its own outcome, and the later of two equal ids, tried after, loses', async () => {
      const outcomes = await Promise.all([
        store.plants.create(plant(1)).then(wasCreated),
        store.plants.create(plant(2)).then(wasCreated),
        store.plants.create(plant(1, 'second of id 1')).then(wasCreated),
        store.plants.create(plant(3)).then(wasCreated),
      ])
      assert.deepEqual(outcomes, [true, true, false, true])
      assert.equal(await statements('create_plants'), 1)
      assert.equal(await statements('create_plant'), 1, 'the second create of id 1, after the first')
      const page = await store.plants.list(everyPlant, 10)
      assert.equal(page.json, '{"name":"plant 1"},{"name":"plant 2"},{"name":"plant 3"}')
    })

    test('a create made in the next turn of the event loop joins the INSERT of the turn before; two turns later, it does not', async () => {
      const before = await statements('create_plants')
      const first = store.plants.create(plant(40)).then(wasCreated)
      await new Promise((resolve) => setImmediate(resolve))
      const second = store.plants.create(plant(41)).then(wasCreated)
      assert.deepEqual(await Promise.all([first, second]), [true, true])
      assert.equal((await statements('create_plants')) - before, 1)
      const alone = await statements('create_plant')
      const third = store.plants.create(plant(42)).then(wasCreated)
      await new Promise((resolve) => setImmediate(resolve))
      await new Promise((resolve) => setImmediate(resolve))
      const fourth = store.plants.create(plant(43)).then(wasCreated)
      assert.deepEqual(await Promise.all([third, fourth]), [true, true])
      assert.equal((await statements('create_plant')) - alone, 2)
    })

    test('an id that exists already is refused in a batch too', async () => {
      assert.deepEqual(
        await Promise.all([store.plants.create(plant(2, 'again')).then(wasCreated), store.plants.create(plant(4)).then(wasCreated)]),
        [false, true],
      )
      assert.equal((await store.plants.list({ ...everyPlant, after: 1n }, 1)).json, '{"name":"plant 2"}')
    })

    test('deletes of one turn are one DELETE that keeps to each owner, and the later of two on one id finds it gone', async () => {
      await Promise.all([20, 21, 22, 23].map((id) => store.plants.create(plant(id)).then(wasCreated)))
      const before = await statements('delete_plants')
      const outcomes = await Promise.all([
        store.plants.delete(20n, 'batcher'),
        store.plants.delete(21n, 'someone else'),
        store.plants.delete(22n, null),
        store.plants.delete(20n, 'batcher'),
        store.plants.delete(99n, 'batcher'),
      ])
      assert.deepEqual(outcomes, [true, false, true, false, false])
      assert.equal((await statements('delete_plants')) - before, 1)
      assert.equal((await store.plants.list({ ...everyPlant, after: 19n, upTo: 29n }, 10)).json, '{"name":"plant 21"},{"name":"plant 23"}')
    })

    test('a create that fails does not take the others of its batch down with it', async () => {
      const outcomes = await Promise.allSettled([
        store.plants.create(plant(10)).then(wasCreated),
        store.plants.create(plant(11, null)).then(wasCreated),
        store.plants.create(plant(12)).then(wasCreated),
      ])
      assert.deepEqual(
        outcomes.map((outcome) => outcome.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      )
      assert.equal((await store.plants.list({ ...everyPlant, after: 9n, upTo: 19n }, 10)).json, '{"name":"plant 10"},{"name":"plant 12"}')
    })

    test('identical lists of one turn are one query, and each owner still gets only its own page', async () => {
      await store.plants.create({ id: 500n, owner: 'lister', name: 'of lister', tag: null }).then(wasCreated)
      await store.plants.create({ id: 501n, owner: 'lister2', name: 'of lister2', tag: null }).then(wasCreated)
      const ofLister = { owner: 'lister', tag: null, after: null, upTo: null }
      const before = await statements('list_plants_by_owner')
      const pages = await Promise.all([
        ...Array.from({ length: 10 }, () => store.plants.list(ofLister, 20)),
        store.plants.list({ ...ofLister, owner: 'lister2' }, 20),
      ])
      assert.equal((await statements('list_plants_by_owner')) - before, 2, 'one query for the ten, one for the other owner')
      for (const page of pages.slice(0, 10)) assert.equal(page.json, '{"name":"of lister"}')
      assert.equal(pages[10]?.json, '{"name":"of lister2"}')
    })

    test("a list asked after a create was acknowledged sees it, though the same list was asked in the create's turn", async () => {
      const ofLister = { owner: 'lister3', tag: null, after: null, upTo: null }
      const early = store.plants.list(ofLister, 20)
      assert.equal(await store.plants.create({ id: 600n, owner: 'lister3', name: 'fresh', tag: null }).then(wasCreated), true)
      const late = await store.plants.list(ofLister, 20)
      assert.equal(late.json, '{"name":"fresh"}')
      await early
    })
  })
}

for (const kind of STORE_KINDS.filter((kind) => kind === 'postgres')) {
  describe(`the ${kind} store and the server's synchronous_commit`, () => {
    const config = (url: string, preparedStatements: boolean) => ({
      kind,
      url,
      poolMax: 2,
      statementTimeoutMs: 5000,
      connectTimeoutMs: 5000,
      readUrl: null,
      preparedStatements,
    })

    test('a server default of off is raised to on, or refused at start without session settings', async () => {
      const db = await freshDatabase(kind)
      try {
        const name = new URL(db.url).pathname.slice(1)
        await adminQuery(`ALTER DATABASE ${name} SET synchronous_commit = off`)
        await assert.rejects(PostgresStore.open(config(db.url, false)), /synchronous_commit is off/)
        const store = await PostgresStore.open(config(db.url, true))
        assert.equal(await store.plants.create(plant(1)).then(wasCreated), true, 'with session settings it serves, raised to on')
        await store.close()
      } finally {
        await db.drop()
      }
    })
  })
}
