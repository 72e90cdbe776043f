import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { SqliteStore } from '../src/store/sqlite.js'
import type { NewPlant } from '../src/store/store.js'
import { tempFolder } from './helpers/service.js'

describe('the SQLite store\'s group commit, on a real file', () => {
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
      store.createPlant(plant(1)),
      store.createPlant(plant(2)),
      store.createPlant(plant(1, 'duplicate')),
      store.deletePlant(2n, 'grouper'),
      store.deletePlant(3n, 'grouper'),
    ])
    assert.deepEqual(outcomes, [true, true, false, true, false])
    const page = await store.listPlants({ owner: 'grouper', tag: null, after: null, upTo: null }, 10)
    assert.deepEqual(page, { json: '{"name":"plant 1"}', count: 1, lastId: 1n })
  })

  test('a write that fails does not take the others of its batch down with it', async () => {
    const outcomes = await Promise.allSettled([
      store.createPlant(plant(10)),
      store.createPlant(plant(11, null)),
      store.createPlant(plant(12)),
    ])
    assert.equal(outcomes[0]?.status, 'fulfilled')
    assert.equal(outcomes[1]?.status, 'rejected')
    assert.equal(outcomes[2]?.status, 'fulfilled')
    const page = await store.listPlants({ owner: 'grouper', tag: null, after: 9n, upTo: null }, 10)
    assert.deepEqual(page, { json: '{"name":"plant 10"},{"name":"plant 12"}', count: 2, lastId: 12n })
  })
})
