import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { STORE_KINDS, seedPlants } from '../support/databases.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'

const COUNT = 300_000
const FIRST_ID = 1_000_000_000_000n
const NAME_LENGTH = 200
/** The service's V8 heap limit: far below what the whole list would take as one array or string. */
const HEAP_LIMIT_MIB = 64
const nameOf = (i: number) => `${String(i).padStart(8, '0')}-${'x'.repeat(NAME_LENGTH - 9)}`

/** Peak resident memory of a process so far, in bytes (VmHWM). */
function peakRss(pid: number): number {
  const match = /VmHWM:\s+([0-9]+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  assert.ok(match)
  return Number(match[1]) * 1024
}

for (const kind of STORE_KINDS) {
  describe(`a list of ${COUNT} plants on ${kind}, from a service with a ${HEAP_LIMIT_MIB} MiB heap`, () => {
    let fx: ServiceFixture
    let owner: string

    before(async () => {
      fx = await startFixture(kind, { NODE_OPTIONS: `--max-old-space-size=${HEAP_LIMIT_MIB}` })
      owner = await fx.token('bulk')
      await seedPlants(fx.db, { owner: 'bulk', firstId: FIRST_ID, count: COUNT, name: nameOf })
    })
    after(() => fx.close())

    test("is streamed whole and in order, though it is larger than the service's whole heap", async () => {
      const response = await fetch(`${fx.service.url}/plants`, { headers: { authorization: `Bearer ${owner}` } })
      assert.equal(response.status, 200)
      assert.equal(response.headers.get('content-length'), null, 'sent in chunks, not as one buffer')
      const text = await response.text()
      assert.ok(text.length > HEAP_LIMIT_MIB * 2 ** 20 * 0.9, `the response (${text.length} bytes) is near or over the heap limit`)
      const plants = JSON.parse(text) as { name: string }[]
      assert.equal(plants.length, COUNT)
      plants.forEach((plant, i) => assert.equal(plant.name, nameOf(i)))
      fx.api.check('GET', '/plants', { status: 200, headers: response.headers, text, body: plants })
      const peak = peakRss(fx.service.process.pid as number)
      console.log(
        `stream on ${kind}: ${COUNT} plants, ${(text.length / 2 ** 20).toFixed(1)} MiB sent; ` +
          `server heap limit ${HEAP_LIMIT_MIB} MiB, peak RSS ${(peak / 2 ** 20).toFixed(1)} MiB`,
      )
    })

    test('a limit that spans many batches gives exactly that many plants and a next link after the last', async () => {
      const response = await fx.api.request<{ name: string }[]>('GET', '/plants?limit=1234', { token: owner })
      assert.equal(response.body.length, 1234)
      assert.equal(response.body.at(-1)?.name, nameOf(1233))
      assert.equal(response.headers.get('link'), `</plants?limit=1234&after=${FIRST_ID + 1233n}>; rel="next"`)
      const next = await fx.api.request<{ name: string }[]>('GET', `/plants?limit=3&after=${FIRST_ID + 1233n}`, {
        token: owner,
      })
      assert.deepEqual(
        next.body.map((plant) => plant.name),
        [nameOf(1234), nameOf(1235), nameOf(1236)],
      )
    })

    test('a limit of two billion streams every plant and sends no next link', async () => {
      const response = await fx.api.request<{ name: string }[]>('GET', '/plants?limit=2000000000', { token: owner })
      assert.equal(response.body.length, COUNT)
      assert.equal(response.headers.get('link'), null)
    })
  })
}
