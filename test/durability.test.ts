import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Api } from './helpers/api.js'
import { STORE_KINDS } from '../support/databases.js'
import { startFixture } from './helpers/fixture.js'
import { startService } from '../support/service.js'

for (const kind of STORE_KINDS) {
  describe(`durability on ${kind}`, () => {
    test('after SIGKILL mid-load and a restart, every acknowledged create and delete holds', async () => {
      const fx = await startFixture(kind)
      const writer = await fx.token('crash')
      // Plants to delete during the load, so that acknowledged deletes are checked too.
      for (let id = 1; id <= 50; id++) await fx.api.createPlant(writer, { id: 900_000 + id, name: `old ${id}` })
      const created = new Set<string>()
      const deleted = new Set<string>()
      let nextId = 1
      let nextDelete = 1
      let killed = false
      const worker = async () => {
        while (!killed) {
          const id = nextId++
          try {
            const response = await fetch(`${fx.service.url}/plants`, {
              method: 'POST',
              headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
              body: `{"id":${id},"name":"plant ${id}"}`,
            })
            if (response.status === 200) created.add(`plant ${id}`)
            if (id % 3 === 0 && nextDelete <= 50) {
              const target = nextDelete++
              const gone = await fetch(`${fx.service.url}/plants/${900_000 + target}`, {
                method: 'DELETE',
                headers: { authorization: `Bearer ${writer}` },
              })
              if (gone.status === 204) deleted.add(`old ${target}`)
            }
          } catch {
            // The connection died with the process: that request was not acknowledged.
          }
        }
      }
      const workers = Array.from({ length: 16 }, worker)
      // The kill comes once plenty were acknowledged, however slow this machine is today.
      for (const since = Date.now(); created.size <= 100 && Date.now() - since < 60_000;) {
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      await fx.service.stop('SIGKILL')
      killed = true
      await Promise.all(workers)
      assert.ok(created.size > 50, `only ${created.size} creates were acknowledged before the kill`)

      const restarted = await startService({ DATABASE_URL: fx.db.url })
      try {
        const api = await Api.connect(restarted.url)
        const names = new Set((await api.listPlants(writer)).map((plant) => plant.name))
        const lostCreates = [...created].filter((name) => !names.has(name))
        const lostDeletes = [...deleted].filter((name) => names.has(name))
        console.log(`crash on ${kind}: acknowledged ${created.size + deleted.size}, lost ${lostCreates.length + lostDeletes.length}`)
        assert.deepEqual(lostCreates, [])
        assert.deepEqual(lostDeletes, [])
      } finally {
        await restarted.stop()
        await fx.db.drop()
      }
    })
  })
}
