import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { Database } from '../src/store/sqlite/driver.js'
import { loadConfig } from '../src/config/config.js'
import { openStore } from '../src/open-store.js'
import { pendingMigrations } from '../src/store/shared/migrations.js'
import { POSTGRES_UNAVAILABLE, STORE_KINDS, type StoreKind, type TestDatabase, freshDatabase, runOnDatabase } from '../support/databases.js'
import { pause, withReceiver } from '../support/receiver.js'
import { type Service, makeToken, startService } from '../support/service.js'
import { Api } from './helpers/api.js'
import { type InProcessFixture, buildFixture, withFixture } from './helpers/in-process.js'

// CONTRACT section 17: a version per plant, its ETag, PATCH as a merge patch, If-Match on
// PATCH and DELETE (412, 428), If-None-Match on GET (304), and the plantUpdated event.

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' }
const WEBHOOK_TEST_ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_DELAYS: '100ms', WEBHOOK_TIMEOUT_MS: '2000' }

for (const kind of STORE_KINDS) {
  describe(`plant versions and conditional requests on ${kind}`, () => {
    let fx: InProcessFixture
    let token: string
    let nextId = 1n
    before(async () => {
      fx = await buildFixture(kind, WEBHOOK_TEST_ENV)
      token = await fx.token('versioned', '--scope', 'plants:read,plants:write,webhooks:manage')
    })
    after(async () => {
      await fx.close()
    })

    /** A new plant and its ETag. */
    const created = async (tag?: string) => {
      const id = nextId++
      const answer = await fx.api.createPlant(token, { id, name: `plant ${id}`, ...(tag === undefined ? {} : { tag }) })
      assert.equal(answer.status, 200, answer.text)
      const etag = answer.headers.get('etag')
      assert.match(String(etag), /^"[1-9][0-9]*"$/, 'a new plant has a strong ETag')
      return { id, etag: etag as string }
    }
    const patch = (id: bigint, json: unknown, headers: Record<string, string> = MERGE_PATCH) =>
      fx.api.request('PATCH', `/plants/${id}`, { token, json, headers })
    const get = (id: bigint, headers: Record<string, string> = {}) => fx.api.request('GET', `/plants/${id}`, { token, headers })

    test('GET carries the ETag; If-None-Match naming it is a 304 without a body, after the token is checked', async () => {
      const { id, etag } = await created('indoor')
      const read = await get(id)
      assert.deepEqual([read.status, read.headers.get('etag'), read.body], [200, etag, { name: `plant ${id}`, tag: 'indoor' }])
      for (const value of [etag, `W/${etag}`, `"9", ${etag}`, '*']) {
        const current = await get(id, { 'if-none-match': value })
        assert.deepEqual([current.status, current.text, current.headers.get('etag')], [304, '', etag], value)
      }
      assert.equal((await get(id, { 'if-none-match': '"2"' })).status, 200)
      const anonymous = await fx.api.request('GET', `/plants/${id}`, { headers: { 'if-none-match': etag } })
      assert.equal(anonymous.status, 401)
    })

    test('PATCH is a merge patch: name, tag, tag null removes it; each change is one more version; a no-op keeps it', async () => {
      const { id, etag: first } = await created('indoor')
      const renamed = await patch(id, { name: 'Monstera' })
      assert.deepEqual([renamed.status, renamed.body], [200, { name: 'Monstera', tag: 'indoor' }])
      const second = renamed.headers.get('etag')
      const untagged = await patch(id, { tag: null }, { 'content-type': 'application/json' })
      assert.deepEqual([untagged.status, untagged.body], [200, { name: 'Monstera' }])
      const third = untagged.headers.get('etag')
      assert.equal(new Set([first, second, third]).size, 3, 'each change is a new version')
      for (const same of [{}, { name: 'Monstera' }, { tag: null }]) {
        const unchanged = await patch(id, same)
        assert.deepEqual([unchanged.status, unchanged.headers.get('etag')], [200, third], JSON.stringify(same))
      }
      const read = await get(id)
      assert.deepEqual([read.headers.get('etag'), read.body], [third, { name: 'Monstera' }])
    })

    test('a bad patch is a 400 that changes nothing: other members, bad values, not an object', async () => {
      const { id, etag } = await created('kept')
      for (const json of [
        { id: 99 },
        { name: '' },
        { name: '   ' },
        { name: 'x'.repeat(201) },
        { tag: 5 },
        { tag: 'a\u0000b' },
        { color: 'green' },
        [],
        'name',
        null,
      ]) {
        const refused = await patch(id, json)
        assert.equal(refused.status, 400, JSON.stringify(json))
        assert.equal((refused.body as { error: number }).error, 400)
      }
      const read = await get(id)
      assert.deepEqual([read.headers.get('etag'), read.body], [etag, { name: `plant ${id}`, tag: 'kept' }])
    })

    test('If-Match: a stale tag is a 412 that changes nothing; the current one, one of a list, or * succeeds; a weak tag never matches', async () => {
      const { id, etag: v1 } = await created()
      const v2 = (await patch(id, { name: 'first' })).headers.get('etag') as string
      const stale = await patch(id, { name: 'lost update' }, { ...MERGE_PATCH, 'if-match': v1 })
      assert.equal(stale.status, 412)
      assert.equal((stale.body as { error: number }).error, 412)
      assert.equal((await patch(id, { name: 'weak' }, { ...MERGE_PATCH, 'if-match': `W/${v2}` })).status, 412)
      assert.deepEqual([(await get(id)).body, (await get(id)).headers.get('etag')], [{ name: 'first' }, v2])
      const v3 = await patch(id, { name: 'second' }, { ...MERGE_PATCH, 'if-match': `"7", ${v2}` })
      assert.equal(v3.status, 200)
      assert.equal((await patch(id, { name: 'third' }, { ...MERGE_PATCH, 'if-match': '*' })).status, 200)
      const retried = await patch(id, { name: 'second' }, { ...MERGE_PATCH, 'if-match': v2 })
      assert.equal(retried.status, 412, 'a PATCH retried with the If-Match it was first sent with is a 412')
    })

    test('DELETE with a stale If-Match is a 412 and the plant stays; with the current tag it is deleted', async () => {
      const { id, etag } = await created()
      const current = (await patch(id, { name: 'changed' })).headers.get('etag') as string
      const stale = await fx.api.request('DELETE', `/plants/${id}`, { token, headers: { 'if-match': etag } })
      assert.equal(stale.status, 412)
      assert.equal((await get(id)).status, 200)
      assert.equal((await fx.api.request('DELETE', `/plants/${id}`, { token, headers: { 'if-match': current } })).status, 204)
      assert.equal((await get(id)).status, 404)
      assert.equal((await fx.api.request('DELETE', `/plants/${id}`, { token, headers: { 'if-match': '*' } })).status, 404)
    })

    test('a malformed If-Match or If-None-Match (an unquoted version, say) is a 400 that names the header and changes nothing', async () => {
      const { id, etag } = await created()
      for (const value of ['1', 'W/1', '"1', ',', '"1" "2"', '**']) {
        const patched = await patch(id, { name: 'changed' }, { ...MERGE_PATCH, 'if-match': value })
        assert.deepEqual([patched.status, (patched.body as { message: string }).message.startsWith('If-Match ')], [400, true], value)
        const deleted = await fx.api.request('DELETE', `/plants/${id}`, { token, headers: { 'if-match': value } })
        assert.equal(deleted.status, 400, value)
        const read = await get(id, { 'if-none-match': value })
        assert.deepEqual([read.status, (read.body as { message: string }).message.startsWith('If-None-Match ')], [400, true], value)
      }
      const read = await get(id)
      assert.deepEqual([read.headers.get('etag'), read.body], [etag, { name: `plant ${id}` }])
    })

    test("a missing plant, another owner's plant and a bad id: 404, 404 and 400, with or without If-Match", async () => {
      const { id, etag } = await created()
      const other = await fx.token('someone-else', '--scope', 'plants:read,plants:write')
      for (const headers of [MERGE_PATCH, { ...MERGE_PATCH, 'if-match': etag }]) {
        assert.equal((await patch(999_999n, { name: 'x' }, headers)).status, 404)
        assert.equal((await fx.api.request('PATCH', `/plants/${id}`, { token: other, json: { name: 'theirs' }, headers })).status, 404)
        assert.equal((await fx.api.request('PATCH', '/plants/abc', { token, json: { name: 'x' }, headers })).status, 400)
      }
      assert.equal((await get(id)).headers.get('etag'), etag)
    })

    test('20 concurrent PATCHes with one If-Match: exactly one 200, the others 412', async () => {
      const { id, etag } = await created()
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => patch(id, { name: `racer ${i}` }, { ...MERGE_PATCH, 'if-match': etag })),
      )
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, ...Array<number>(19).fill(412)])
      const winner = answers.find((answer) => answer.status === 200)
      assert.equal((await get(id)).headers.get('etag'), winner?.headers.get('etag'))
    })

    test('a tag never comes back: after a delete and a re-create of the id, no tag given before matches', async () => {
      const { id, etag: first } = await created()
      const seen = [first, (await patch(id, { name: 'read by A' })).headers.get('etag') as string]
      assert.equal((await fx.api.request('DELETE', `/plants/${id}`, { token })).status, 204)
      const again = await fx.api.createPlant(token, { id, name: 're-created by B' })
      assert.equal(again.status, 200, again.text)
      assert.ok(!seen.includes(again.headers.get('etag') as string), `the re-created plant's ${again.headers.get('etag')} is new`)
      for (const old of seen) {
        const stalePatch = await patch(id, { name: 'lost update' }, { ...MERGE_PATCH, 'if-match': old })
        assert.equal(stalePatch.status, 412, `PATCH If-Match ${old}`)
        const staleDelete = await fx.api.request('DELETE', `/plants/${id}`, { token, headers: { 'if-match': old } })
        assert.equal(staleDelete.status, 412, `DELETE If-Match ${old}`)
        assert.equal((await get(id, { 'if-none-match': old })).status, 200, `GET If-None-Match ${old}`)
      }
      const read = await get(id)
      assert.deepEqual([read.body, read.headers.get('etag')], [{ name: 're-created by B' }, again.headers.get('etag')])
    })

    test("a replayed create answers the plant's current tag, or none once it is gone", async () => {
      const id = nextId++
      const send = () =>
        fx.api.request('POST', '/plants', {
          token,
          json: { id: Number(id), name: 'replayed' },
          headers: { 'idempotency-key': `replay-${id}` },
        })
      const first = await send()
      assert.equal(first.status, 200, first.text)
      const changed = await patch(id, { tag: 'changed since' })
      assert.equal(changed.status, 200)
      const replayed = await send()
      assert.deepEqual(
        [replayed.status, replayed.headers.get('idempotent-replayed'), replayed.headers.get('etag')],
        [200, 'true', changed.headers.get('etag')],
      )
      assert.equal((await fx.api.request('DELETE', `/plants/${id}`, { token })).status, 204)
      const gone = await send()
      assert.deepEqual([gone.status, gone.headers.get('idempotent-replayed'), gone.headers.get('etag')], [200, 'true', null])
    })

    test('a change sends plantUpdated with the plant after it to the subscriptions that ask; a no-op or refused patch sends nothing', async () => {
      await withReceiver(async (receiver) => {
        const subscribed = await fx.api.request<{ id: string }>('POST', '/webhooks', {
          token,
          json: { url: receiver.url('/updates'), events: ['plantUpdated'] },
        })
        assert.equal(subscribed.status, 201, subscribed.text)
        const other = await fx.api.request<{ id: string }>('POST', '/webhooks', { token, json: { url: receiver.url('/new') } })
        const { id, etag } = await created('indoor')
        assert.equal((await patch(id, { name: 'Fern', tag: null })).status, 200)
        assert.equal((await patch(id, {})).status, 200)
        assert.equal((await patch(id, { name: 'refused' }, { ...MERGE_PATCH, 'if-match': etag })).status, 412)
        await receiver.until((received) => received.some((event) => event.path === '/updates'))
        await pause(300)
        const updates = receiver.received.filter((event) => event.path === '/updates')
        assert.deepEqual(
          updates.map((event) => [event.headers['plantstore-event'], event.body]),
          [['plantUpdated', `{"id":${id},"name":"Fern"}`]],
        )
        assert.deepEqual(
          receiver.received.filter((event) => event.path === '/new').map((event) => event.headers['plantstore-event']),
          ['newPlant'],
        )
        const log = await fx.api.request<{ event: string }[]>('GET', `/webhooks/${subscribed.body.id}/deliveries`, { token })
        assert.equal(log.status, 200, log.text)
        assert.deepEqual(
          log.body.map((entry) => entry.event),
          ['plantUpdated'],
        )
        for (const made of [subscribed.body.id, other.body.id]) await fx.api.request('DELETE', `/webhooks/${made}`, { token })
      })
    })
  })
}

describe('REQUIRE_IF_MATCH=true', () => {
  test('PATCH and DELETE without If-Match are 428 and change nothing; with it they work', async () => {
    await withFixture({ REQUIRE_IF_MATCH: 'true' }, async (fx) => {
      const token = await fx.token('careful')
      const made = await fx.api.createPlant(token, { id: 1, name: 'guarded' })
      assert.equal(made.status, 200)
      const etag = made.headers.get('etag') as string
      const unconditional = await fx.api.request('PATCH', '/plants/1', { token, json: { name: 'x' }, headers: MERGE_PATCH })
      assert.equal(unconditional.status, 428)
      assert.equal((await fx.api.request('DELETE', '/plants/1', { token })).status, 428)
      const read = await fx.api.request('GET', '/plants/1', { token })
      assert.deepEqual([read.headers.get('etag'), read.body], [etag, { name: 'guarded' }])
      const changed = await fx.api.request('PATCH', '/plants/1', {
        token,
        json: { name: 'x' },
        headers: { ...MERGE_PATCH, 'if-match': etag },
      })
      assert.equal(changed.status, 200)
      assert.equal((await fx.api.request('DELETE', '/plants/1', { token, headers: { 'if-match': '*' } })).status, 204)
    })
  })
})

describe('the method is judged before the body', () => {
  test('PATCH /plants (no id) with a merge-patch body is a 405 with Allow', async () => {
    await withFixture({}, async (fx) => {
      const answer = await fx.app.inject({
        method: 'PATCH',
        url: '/plants',
        headers: { 'content-type': 'application/merge-patch+json' },
        payload: '{"name":',
      })
      assert.equal(answer.statusCode, 405)
      assert.match(String(answer.headers.allow), /GET/)
    })
  })
})

describe('two instances on one PostgreSQL database', { skip: POSTGRES_UNAVAILABLE === null ? false : 'no PostgreSQL server' }, () => {
  let db: TestDatabase
  let services: Service[] = []
  before(async () => {
    db = await freshDatabase('postgres')
    services = await Promise.all([startService({ DATABASE_URL: db.url }), startService({ DATABASE_URL: db.url })])
  })
  after(async () => {
    await Promise.all(services.map((service) => service.stop()))
    await db.drop()
  })

  test('20 concurrent PATCHes with one If-Match over both: exactly one 200', async () => {
    const token = await makeToken(db.url, 'racers')
    const apis = await Promise.all(services.map((service) => Api.connect(service.url)))
    const made = await apis[0]!.createPlant(token, { id: 1, name: 'contested' })
    assert.equal(made.status, 200)
    const etag = made.headers.get('etag') as string
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        apis[i % 2]!.request('PATCH', '/plants/1', { token, json: { name: `racer ${i}` }, headers: { ...MERGE_PATCH, 'if-match': etag } }),
      ),
    )
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, ...Array<number>(19).fill(412)])
    const read = await apis[1]!.request('GET', '/plants/1', { token })
    assert.equal(read.headers.get('etag'), answers.find((answer) => answer.status === 200)?.headers.get('etag'))
  })
})

/** A database as the release before store-wide versions left it: migrated up to 010, plant versions counted per plant. */
async function databaseAtMigration10(kind: StoreKind): Promise<{ db: TestDatabase; run: (sql: string) => Promise<void> }> {
  const db = await freshDatabase(kind)
  const migrations = pendingMigrations(kind, new Set()).filter((migration) => migration.version <= 10)
  if (kind === 'sqlite') {
    const path = db.url.slice('sqlite:'.length)
    mkdirSync(dirname(path), { recursive: true })
    const run = async (sql: string) => {
      const file = new Database(path)
      try {
        file.exec(sql)
      } finally {
        file.close()
      }
    }
    await run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)')
    for (const migration of migrations) {
      await run(`${migration.sql};INSERT INTO schema_migrations VALUES (${migration.version}, '${migration.name}', 0)`)
    }
    return { db, run }
  }
  const run = async (sql: string) => {
    await runOnDatabase(db, sql)
  }
  await run(
    'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
  )
  for (const migration of migrations)
    await run(`${migration.sql};INSERT INTO schema_migrations VALUES (${migration.version}, '${migration.name}')`)
  return { db, run }
}

for (const kind of STORE_KINDS) {
  describe(`tags given by the release before store-wide versions, on ${kind}`, () => {
    test('after the upgrade no plant is given a tag that an earlier release gave to its id, deleted plants included', async () => {
      const { db, run } = await databaseAtMigration10(kind)
      // Plant 1 at version 5 (tags "1" to "5" given); plant 2 reached version 9, then was deleted: its tags are nowhere in the table.
      const createdAt = kind === 'sqlite' ? ', created_at' : ''
      await run(`INSERT INTO plants (id, owner, name, version${createdAt}) VALUES (1, 'old', 'kept', 5${kind === 'sqlite' ? ', 0' : ''})`)
      const store = await openStore(loadConfig({ DATABASE_URL: db.url }).database)
      try {
        assert.equal((await store.plants.get(1n, null))?.version, 5, 'an existing plant keeps the tag it was given')
        const recreated = await store.plants.create({ id: 2n, owner: 'old', name: 're-created', tag: null })
        assert.ok(recreated !== null && recreated > 9, `the re-created plant 2 is version ${recreated}, above the 9 it reached before`)
        const changed = await store.plants.update(1n, null, { name: 'changed' }, null)
        assert.ok(changed.outcome === 'updated' && changed.version > 9, 'a change to an existing plant is above every earlier tag too')
        assert.ok(changed.version > recreated, 'versions keep rising')
      } finally {
        await store.close()
        await db.drop()
      }
    })
  })
}

for (const kind of STORE_KINDS) {
  describe(`versions given by two processes' stores on one ${kind} database`, () => {
    test('creates and changes committed together by both stores never share a version, and later ones rise above them', async () => {
      const db = await freshDatabase(kind)
      const config = loadConfig({ DATABASE_URL: db.url }).database
      const stores = [await openStore(config), await openStore(config)]
      try {
        // Many writes of one turn on each store: each store commits them in few transactions, the two in turn.
        const writes = stores.flatMap((store, which) =>
          Array.from({ length: 200 }, (_, i) =>
            store.plants.create({ id: BigInt(which * 1000 + i + 1), owner: 'o', name: 'n', tag: null }),
          ),
        )
        const created = await Promise.all(writes)
        const changes = await Promise.all(
          stores.map((store, which) => store.plants.update(BigInt(which * 1000 + 1), null, { name: `changed by ${which}` }, null)),
        )
        const versions = [...created, ...changes.map((change) => (change.outcome === 'updated' ? change.version : null))]
        assert.ok(
          versions.every((version) => typeof version === 'number'),
          'every write was given a version',
        )
        assert.equal(new Set(versions).size, versions.length, 'no version was given twice')
        const last = await stores[0]!.plants.create({ id: 5000n, owner: 'o', name: 'last', tag: null })
        assert.ok(last !== null && last > Math.max(...(versions as number[])), `a later create (${last}) is above every earlier version`)
        // A create of a taken id gives no version, and the store goes on giving new ones.
        assert.equal(await stores[1]!.plants.create({ id: 5000n, owner: 'o', name: 'again', tag: null }), null)
        const after = await stores[1]!.plants.create({ id: 5001n, owner: 'o', name: 'after', tag: null })
        assert.ok(after !== null && after > last, 'versions keep rising after a refused create')
      } finally {
        for (const store of stores) await store.close()
        await db.drop()
      }
    })
  })
}
