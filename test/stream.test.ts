import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { STORE_KINDS, seedPlants } from './helpers/databases.js'
import { type Fixture, startFixture } from './helpers/fixture.js'

const COUNT = 100_000
const FIRST_ID = 1_000_000_000_000n
const NAME_LENGTH = 200
const nameOf = (i: number) => `${String(i).padStart(8, '0')}-${'x'.repeat(NAME_LENGTH - 9)}`

/** Peak resident memory of a process so far, in bytes (VmHWM). */
function peakRss(pid: number): number {
  const match = /VmHWM:\s+([0-9]+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  assert.ok(match)
  return Number(match[1]) * 1024
}

for (const kind of STORE_KINDS) {
  describe(`a list of ${COUNT} plants on ${kind}`, () => {
    let fx: Fixture
    let owner: string
    let doubleOwner: string

    before(async () => {
      fx = await startFixture(kind)
      ;[owner, doubleOwner] = await Promise.all([fx.token('bulk'), fx.token('bulk2')])
      await seedPlants(fx.db, { owner: 'bulk', firstId: FIRST_ID, count: COUNT, name: nameOf })
      await seedPlants(fx.db, { owner: 'bulk2', firstId: 2n * FIRST_ID, count: 2 * COUNT, name: nameOf })
    })
    after(() => fx.close())

    test('is streamed whole and in order, and a list twice as long does not raise the server\'s peak memory', async () => {
      const pid = fx.service.process.pid as number
      const listAll = async (token: string) => {
        const response = await fetch(`${fx.service.url}/plants`, { headers: { authorization: `Bearer ${token}` } })
        assert.equal(response.status, 200)
        assert.equal(response.headers.get('content-length'), null, 'sent in chunks, not as one buffer')
        const text = await response.text()
        const plants = JSON.parse(text) as { name: string }[]
        fx.api.check('GET', '/plants', { status: 200, headers: response.headers, text, body: plants })
        return { plants, bytes: text.length, peak: peakRss(pid) }
      }
      // The first list settles the heap's working size; the second, twice as long, must not need more.
      const first = await listAll(owner)
      assert.equal(first.plants.length, COUNT)
      first.plants.forEach((plant, i) => assert.equal(plant.name, nameOf(i)))
      const second = await listAll(doubleOwner)
      assert.equal(second.plants.length, 2 * COUNT)
      const growth = second.peak - first.peak
      console.log(
        `stream: ${COUNT} plants (${(first.bytes / 2 ** 20).toFixed(1)} MiB) then ${2 * COUNT} ` +
          `(${(second.bytes / 2 ** 20).toFixed(1)} MiB); server peak RSS ${(first.peak / 2 ** 20).toFixed(1)} → ` +
          `${(second.peak / 2 ** 20).toFixed(1)} MiB`,
      )
      assert.ok(growth < second.bytes / 4, `peak RSS grew by ${growth} bytes for a ${second.bytes}-byte response`)
    })

    test('a limit that spans many batches gives exactly that many plants and a next link after the last', async () => {
      const response = await fx.api.request<{ name: string }[]>('GET', '/plants?limit=1234', { token: owner })
      assert.equal(response.body.length, 1234)
      assert.equal(response.body.at(-1)?.name, nameOf(1233))
      assert.equal(response.headers.get('link'), `</plants?limit=1234&after=${FIRST_ID + 1233n}>; rel="next"`)
      const next = await fx.api.request<{ name: string }[]>('GET', `/plants?limit=3&after=${FIRST_ID + 1233n}`, {
        token: owner,
      })
      assert.deepEqual(next.body.map((plant) => plant.name), [nameOf(1234), nameOf(1235), nameOf(1236)])
    })

    test('a limit of two billion streams every plant and sends no next link', async () => {
      const response = await fx.api.request<{ name: string }[]>('GET', '/plants?limit=2000000000', { token: owner })
      assert.equal(response.body.length, COUNT)
      assert.equal(response.headers.get('link'), null)
    })
  })
}
