import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type ListedPlant, PlantStoreClient } from '@plantstore/client'
import { STORE_KINDS } from '../support/databases.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'

// CONTRACT section 20: GET /plants?include=id gives each item its exact id, first; without it the
// items stay {name, tag}.

const INT64_MAX = 2n ** 63n - 1n
const INT64_MIN = -(2n ** 63n)
const TWO_53_PLUS_1 = 2n ** 53n + 1n

for (const kind of STORE_KINDS) {
  describe(`GET /plants?include=id on ${kind}`, () => {
    let fx: ServiceFixture
    let token: string
    before(async () => {
      fx = await startFixture(kind)
      token = await fx.token('lister')
      for (const [id, name, tag] of [
        [INT64_MIN, 'smallest', undefined],
        [7n, 'Monstera', 'indoor'],
        [TWO_53_PLUS_1 - 1n, 'float neighbour', ''],
        [TWO_53_PLUS_1, 'above doubles', 'indoor'],
        [INT64_MAX, 'largest', undefined],
      ] as const) {
        const answer = await fx.api.createPlant(token, { id, name, ...(tag === undefined ? {} : { tag }) })
        assert.equal(answer.status, 200, answer.text)
      }
    })
    after(() => fx.close())

    const list = (query: string) => fx.api.request('GET', `/plants${query}`, { token })

    test('with include=id each item is {"id", "name", "tag"?} with the id first, as an exact integer literal', async () => {
      const answer = await list('?include=id')
      assert.equal(answer.status, 200)
      assert.equal(
        answer.text,
        '[{"id":-9223372036854775808,"name":"smallest"},{"id":7,"name":"Monstera","tag":"indoor"},' +
          '{"id":9007199254740992,"name":"float neighbour","tag":""},{"id":9007199254740993,"name":"above doubles","tag":"indoor"},' +
          '{"id":9223372036854775807,"name":"largest"}]',
      )
    })

    test("without include the list is exactly the specification's {name, tag} items", async () => {
      const answer = await list('')
      assert.equal(
        answer.text,
        '[{"name":"smallest"},{"name":"Monstera","tag":"indoor"},{"name":"float neighbour","tag":""},' +
          '{"name":"above doubles","tag":"indoor"},{"name":"largest"}]',
      )
    })

    test('paging and the tag filter work with include=id, and the next link keeps it', async () => {
      const first = await list('?include=id&limit=1&tag=indoor')
      assert.equal(first.text, '[{"id":7,"name":"Monstera","tag":"indoor"}]')
      const link = first.headers.get('link')
      assert.equal(link, '</plants?limit=1&after=7&tag=indoor&include=id>; rel="next"')
      const second = await list(link.slice('</plants'.length, link.indexOf('>')))
      assert.equal(second.text, '[{"id":9007199254740993,"name":"above doubles","tag":"indoor"}]')
    })

    test('a list longer than one batch is streamed with the ids too', async () => {
      const streamer = await fx.token('streamer')
      for (let id = 1000n; id < 1520n; id++) assert.equal((await fx.api.createPlant(streamer, { id, name: `p${id}` })).status, 200)
      const answer = await fx.api.request<{ id: number; name: string }[]>('GET', '/plants?include=id', { token: streamer })
      assert.equal(answer.body.length, 520)
      assert.deepEqual(answer.body[519], { id: 1519, name: 'p1519' })
      assert.ok(answer.body.every((plant, index) => plant.id === 1000 + index && Object.keys(plant)[0] === 'id'))
    })

    test('any other include value is a 400 Error body naming include, and lists nothing', async () => {
      for (const value of ['name', 'ID', '', 'id,name', 'id&include=name']) {
        const answer = await list(`?include=${value}`)
        assert.equal(answer.status, 400, value)
        assert.match((answer.body as { message: string }).message, /include/, value)
      }
    })

    test('the typed client lists with includeId: bigint ids, exact, through listPlants and listAll', async () => {
      const client = new PlantStoreClient({ baseUrl: fx.service.url, token })
      const page = await client.listPlants({ includeId: true, limit: 2 })
      assert.deepEqual(page.plants, [
        { id: INT64_MIN, name: 'smallest' },
        { id: 7n, name: 'Monstera', tag: 'indoor' },
      ])
      assert.deepEqual(page.next, { limit: 2, after: 7n, includeId: true })
      const all: ListedPlant[] = []
      for await (const plant of client.listAll({ includeId: true, pageSize: 2 })) all.push(plant)
      assert.deepEqual(
        all.map((plant) => plant.id),
        [INT64_MIN, 7n, TWO_53_PLUS_1 - 1n, TWO_53_PLUS_1, INT64_MAX],
      )
      assert.deepEqual((await client.listPlants({ limit: 1 })).plants, [{ name: 'smallest' }])
    })
  })
}
