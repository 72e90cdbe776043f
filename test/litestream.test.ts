import assert from 'node:assert/strict'
import { rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { Database } from '../src/store/sqlite/driver.js'
import { type TestDatabase, freshDatabase } from '../support/databases.js'
import { LITESTREAM, type Replication, restoreReplica, startReplication } from '../support/litestream.js'
import { pause } from '../support/receiver.js'
import { type Service, makeToken, startService, tempFolder } from '../support/service.js'
import { Api } from './helpers/api.js'

// Litestream (the npm package's v0.3.13 binary) replicating the service's SQLite file to a
// `file` replica, a real Litestream backend: its checkpoints fail no request, a lost machine
// comes back from the replica, and a point-in-time restore undoes a mass delete.

const pathOf = (url: string) => url.slice('sqlite:'.length)

/** The plant ids a SQLite file holds. */
function idsIn(file: string): Set<string> {
  const db = new Database(file, { readonly: true })
  try {
    return new Set((db.prepare('SELECT id FROM plants').pluck().safeIntegers(true).all() as bigint[]).map(String))
  } finally {
    db.close()
  }
}

interface Written {
  acknowledged: { id: number; at: number }[]
  statuses: Map<number, number>
}

/** Creates plants on `lanes` connections at once until `stop()` says so; ids from `firstId` up. */
function writeUntilStopped(api: Api, token: string, lanes: number, firstId: number) {
  const written: Written = { acknowledged: [], statuses: new Map() }
  let stopped = false
  let next = firstId
  const lane = async () => {
    while (!stopped && next < firstId + 1_000_000) {
      const id = next++
      const answer = await api.createPlant(token, { id, name: `replicated ${id}` }).catch(() => ({ status: 0 }))
      written.statuses.set(answer.status, (written.statuses.get(answer.status) ?? 0) + 1)
      if (answer.status === 200) written.acknowledged.push({ id, at: Date.now() })
    }
  }
  const running = Array.from({ length: lanes }, lane)
  return {
    written,
    stop: async () => {
      stopped = true
      await Promise.all(running)
      return written
    },
  }
}

interface Replicated {
  db: TestDatabase
  folder: { path: string }
  replicaUrl: string
  service: Service
  replication: Replication
  token: string
  api: Api
}

/** A service on a fresh SQLite file that `litestream replicate` copies to a `file` replica, with a token of `subject`. */
async function withReplicatedService(subject: string, run: (replicated: Replicated) => Promise<void>): Promise<void> {
  const db = await freshDatabase('sqlite')
  const folder = tempFolder()
  const replicaUrl = pathToFileURL(join(folder.path, 'replica')).href
  const service = await startService({ DATABASE_URL: db.url })
  const replication = await startReplication(pathOf(db.url), replicaUrl)
  try {
    const token = await makeToken(db.url, subject)
    await run({ db, folder, replicaUrl, service, replication, token, api: await Api.connect(service.url) })
  } finally {
    await replication.kill()
    await service.stop()
    folder.remove()
    await db.drop()
  }
}

const skip = LITESTREAM === null ? `Litestream's npm package has no binary for ${process.platform}-${process.arch}` : false
if (skip && process.env.CI === 'true') throw new Error(`${skip}, and CI=true`)

describe('Litestream replication of the SQLite store', { skip }, () => {
  test('at full write load under litestream replicate, every create is answered 200: its checkpoints fail no request', async () => {
    await withReplicatedService('loader', async ({ folder, replicaUrl, replication, token, api }) => {
      const load = writeUntilStopped(api, token, 32, 1)
      // At least 6 s, and until the load is a full one however busy the machine (bounded).
      for (const since = Date.now(); Date.now() - since < 120_000;) {
        if (Date.now() - since >= 6_000 && load.written.acknowledged.length > 2_000) break
        await pause(50)
      }
      const { acknowledged, statuses } = await load.stop()
      assert.deepEqual([...statuses.keys()], [200], `every create was answered 200: ${JSON.stringify([...statuses])}`)
      assert.ok(acknowledged.length > 2_000, `a full load was written (${acknowledged.length} creates)`)
      // Litestream 0.3.13's last sync fails on a checkpoint it would take within a second of heavy
      // writes (its upstream fix came later): a stop once the writes have settled exits 0.
      await pause(2_500)
      assert.equal(await replication.stop(), 0, replication.output())
      const restored = join(folder.path, 'restored.db')
      const { code, output } = await restoreReplica(replicaUrl, restored)
      assert.equal(code, 0, output)
      const held = idsIn(restored)
      const missing = acknowledged.filter((plant) => !held.has(String(plant.id)))
      assert.deepEqual(missing, [], 'a replica stopped gracefully holds every acknowledged plant')
    })
  })

  test('a lost machine comes back from the replica with every plant acknowledged more than 2 s before the loss', async () => {
    await withReplicatedService('survivor', async ({ db, folder, replicaUrl, service, replication, token, api }) => {
      const load = writeUntilStopped(api, token, 8, 1)
      // At least 4 s of load, and enough plants acknowledged more than 2 s ago however busy the machine (at most 60 s).
      const loadStarted = Date.now()
      const settled = () => load.written.acknowledged.filter((plant) => plant.at < Date.now() - 2_500).length > 600
      while (Date.now() - loadStarted < 60_000 && (Date.now() - loadStarted < 4_000 || !settled())) await pause(100)
      // The machine is gone at once: no last sync, no graceful stop, and its disk with it.
      const lostAt = Date.now()
      await replication.kill()
      service.process.kill('SIGKILL')
      const { acknowledged } = await load.stop()
      await service.stop()
      rmSync(dirname(pathOf(db.url)), { recursive: true, force: true })

      const restored = join(folder.path, 'new-machine', 'plantstore.db')
      const startedAt = Date.now()
      const { code, output } = await restoreReplica(replicaUrl, restored)
      const restoreMs = Date.now() - startedAt
      assert.equal(code, 0, output)
      const held = idsIn(restored)
      const before = acknowledged.filter((plant) => plant.at < lostAt - 2_000)
      assert.ok(before.length > 500, `plants were acknowledged well before the loss (${before.length})`)
      const missing = before.filter((plant) => !held.has(String(plant.id)))
      assert.deepEqual(missing, [], 'every plant acknowledged more than 2 s before the loss is restored')
      const lost = acknowledged.filter((plant) => !held.has(String(plant.id)))
      const lostWindowMs = lost.length === 0 ? 0 : lostAt - Math.min(...lost.map((plant) => plant.at))
      console.log(
        `# lost machine: ${acknowledged.length} acknowledged, ${lost.length} lost (written in the last ${lostWindowMs} ms), restore of ${held.size} plants in ${restoreMs} ms`,
      )

      // The service serves the restored file as it was.
      const reborn = await startService({ DATABASE_URL: `sqlite:${restored}` })
      try {
        const probe = before.at(-1) as { id: number }
        assert.equal((await (await Api.connect(reborn.url)).request('GET', `/plants/${probe.id}`, { token })).status, 200)
      } finally {
        await reborn.stop()
      }
    })
  })

  test('restore -timestamp brings back the plants a mass delete removed', async () => {
    await withReplicatedService('careless', async ({ folder, replicaUrl, replication, token, api }) => {
      const ids = Array.from({ length: 300 }, (_, i) => i + 1)
      for (const id of ids) assert.equal((await api.createPlant(token, { id, name: `kept ${id}` })).status, 200)
      await pause(2_500)
      const beforeTheMistake = new Date()
      await pause(1_500)
      for (const id of ids) assert.equal((await api.request('DELETE', `/plants/${id}`, { token })).status, 204)
      assert.deepEqual(await api.listPlants(token), [])
      await pause(2_500)
      assert.equal(await replication.stop(), 0, replication.output())

      const now = join(folder.path, 'now.db')
      assert.equal((await restoreReplica(replicaUrl, now)).code, 0)
      assert.equal(idsIn(now).size, 0, 'the latest state has the delete')
      const then = join(folder.path, 'then.db')
      const { code, output } = await restoreReplica(replicaUrl, then, beforeTheMistake)
      assert.equal(code, 0, output)
      assert.deepEqual(
        [...idsIn(then)].sort((a, b) => Number(a) - Number(b)),
        ids.map(String),
        'the state at the timestamp has every plant',
      )
    })
  })
})
