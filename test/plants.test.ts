import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { STORE_KINDS } from '../support/databases.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

type Plant = { name: string; tag?: string }

for (const kind of STORE_KINDS) {
  describe(`plants on ${kind}`, () => {
    let fx: InProcessFixture
    let alice: string
    let bob: string

    before(async () => {
      fx = await buildFixture(kind)
      ;[alice, bob] = await Promise.all([fx.token('alice'), fx.token('bob')])
    })
    after(() => fx.close())

    describe('create', () => {
      test('a valid plant is answered 200 with the Plant shape and a Location, and is listed after', async () => {
        const response = await fx.api.createPlantRaw(alice, '{"id":101,"name":"Monstera","tag":"tropical"}')
        assert.equal(response.status, 200)
        assert.deepEqual(response.body, { name: 'Monstera', tag: 'tropical' })
        assert.equal(response.headers.get('location'), '/plants/101')
        const listed = await fx.api.listPlants(alice)
        assert.deepEqual(listed, [{ name: 'Monstera', tag: 'tropical' }])
      })

      test('an absent tag is omitted from the answer and an empty tag comes back empty', async () => {
        const untagged = await fx.api.createPlantRaw(alice, '{"id":102,"name":"Fern"}')
        assert.deepEqual(untagged.body, { name: 'Fern' })
        const emptyTag = await fx.api.createPlantRaw(alice, '{"id":103,"name":"Ivy","tag":""}')
        assert.deepEqual(emptyTag.body, { name: 'Ivy', tag: '' })
        const listed = await fx.api.listPlants(alice, '?after=101&limit=2')
        assert.deepEqual(listed, [{ name: 'Fern' }, { name: 'Ivy', tag: '' }])
      })

      test('other properties are ignored and not stored', async () => {
        const response = await fx.api.createPlantRaw(alice, '{"id":104,"name":"Aloe","color":"green","owner":"bob"}')
        assert.equal(response.status, 200)
        assert.deepEqual(response.body, { name: 'Aloe' })
        assert.deepEqual(await fx.api.listPlants(alice, '?after=103&limit=1'), [{ name: 'Aloe' }])
        assert.deepEqual(await fx.api.listPlants(bob), [])
      })

      test('9007199254740993 and 9007199254740992 are two plants, each reached by its exact id', async () => {
        const above = await fx.api.createPlantRaw(bob, '{"id":9007199254740993,"name":"above"}')
        const at = await fx.api.createPlantRaw(bob, '{"id":9007199254740992,"name":"at"}')
        assert.equal(above.status, 200)
        assert.equal(at.status, 200)
        assert.equal(above.headers.get('location'), '/plants/9007199254740993')
        assert.equal(at.headers.get('location'), '/plants/9007199254740992')
        assert.deepEqual(await fx.api.listPlants(bob), [{ name: 'at' }, { name: 'above' }])
        const got = await fx.api.request('GET', '/plants/9007199254740993', { token: bob })
        assert.deepEqual(got.body, { name: 'above' })
        assert.equal((await fx.api.request('DELETE', '/plants/9007199254740993', { token: bob })).status, 204)
        assert.deepEqual(await fx.api.listPlants(bob), [{ name: 'at' }])
        assert.equal((await fx.api.request('DELETE', '/plants/9007199254740992', { token: bob })).status, 204)
      })

      test('the largest and smallest int64 ids round-trip through create, get, list paging and delete', async () => {
        for (const id of ['9223372036854775807', '-9223372036854775808']) {
          const created = await fx.api.createPlantRaw(bob, `{"id":${id},"name":"edge ${id}"}`)
          assert.equal(created.status, 200, created.text)
          assert.equal(created.headers.get('location'), `/plants/${id}`)
          const got = await fx.api.request('GET', `/plants/${id}`, { token: bob })
          assert.deepEqual(got.body, { name: `edge ${id}` })
        }
        const first = await fx.api.request('GET', '/plants?limit=1', { token: bob })
        assert.deepEqual(first.body, [{ name: 'edge -9223372036854775808' }])
        assert.equal(first.headers.get('link'), '</plants?limit=1&after=-9223372036854775808>; rel="next"')
        const last = await fx.api.request('GET', '/plants?limit=1&after=-9223372036854775808', { token: bob })
        assert.deepEqual(last.body, [{ name: 'edge 9223372036854775807' }])
        const beyond = await fx.api.request('GET', '/plants?limit=1&after=9223372036854775807', { token: bob })
        assert.deepEqual(beyond.body, [])
        for (const id of ['9223372036854775807', '-9223372036854775808']) {
          assert.equal((await fx.api.request('DELETE', `/plants/${id}`, { token: bob })).status, 204)
        }
      })

      const invalidBodies: [string, string, RegExp][] = [
        ['malformed JSON', '{"id":7,', /JSON/],
        ['a body that is an array', '[{"id":7,"name":"x"}]', /object/],
        ['a body that is a string', '"plant"', /object/],
        ['a missing id', '{"name":"x"}', /id/],
        ['a missing name', '{"id":7}', /name/],
        ['an id written 1.5', '{"id":1.5,"name":"x"}', /id/],
        ['an id written 1.0', '{"id":1.0,"name":"x"}', /id/],
        ['an id written 1e3', '{"id":1e3,"name":"x"}', /id/],
        ['an id that is a string', '{"id":"7","name":"x"}', /id/],
        ['an id that is true', '{"id":true,"name":"x"}', /id/],
        ['an id that is null', '{"id":null,"name":"x"}', /id/],
        ['an id above int64', '{"id":9223372036854775808,"name":"x"}', /id/],
        ['an id below int64', '{"id":-9223372036854775809,"name":"x"}', /id/],
        ['an empty name', '{"id":7,"name":""}', /name/],
        ['a name of white space only', '{"id":7,"name":" \\t\\n "}', /name must contain a character other than white space/],
        ['a name with U+0000', '{"id":7,"name":"a\\u0000b"}', /name .*U\+0000/],
        ['a tag with U+0000', '{"id":7,"name":"x","tag":"\\u0000"}', /tag must not contain U\+0000/],
        ['a name that is a number', '{"id":7,"name":7}', /name/],
        ['a name of 201 characters', `{"id":7,"name":"${'n'.repeat(201)}"}`, /name/],
        ['a tag that is null', '{"id":7,"name":"x","tag":null}', /tag/],
        ['a tag that is a number', '{"id":7,"name":"x","tag":1}', /tag/],
        ['a tag of 101 characters', `{"id":7,"name":"x","tag":"${'t'.repeat(101)}"}`, /tag/],
      ]
      for (const [what, json, field] of invalidBodies) {
        test(`${what} is a 400 naming the problem, and nothing is created`, async () => {
          const response = await fx.api.createPlantRaw(alice, json)
          assert.equal(response.status, 400, response.text)
          assert.match((response.body as { message: string }).message, field)
          assert.equal((await fx.api.request('GET', '/plants/7', { token: alice })).status, 404)
        })
      }

      test('lengths count Unicode code points: 200 emoji make a valid name, 100 a valid tag', async () => {
        const name = '🌵'.repeat(200)
        const tag = '🌱'.repeat(100)
        const response = await fx.api.createPlant(alice, { id: 105, name, tag })
        assert.equal(response.status, 200, response.text)
        assert.deepEqual(response.body, { name, tag })
        assert.equal((await fx.api.createPlant(alice, { id: 106, name: '🌵'.repeat(201) })).status, 400)
      })

      test('names and tags with quotes, backslashes, control characters and non-ASCII come back exactly, in get and list', async () => {
        const awkward = [
          { name: 'say "hi" \\ back\\slash', tag: 'tab\there' },
          { name: 'line\nbreak\r\u0001\u001f\u007f', tag: '</script>' },
          { name: 'sep\u2028\u2029 é 中文 🌿', tag: '{"not":"json"}' },
          { name: '\ufeffbom and \\u0041 as text' },
        ]
        const owner = await fx.token('awkward')
        for (const [i, plant] of awkward.entries()) {
          const created = await fx.api.createPlant(owner, { id: 4_000 + i, ...plant })
          assert.equal(created.status, 200, created.text)
          assert.deepEqual((await fx.api.request('GET', `/plants/${4_000 + i}`, { token: owner })).body, plant)
        }
        assert.deepEqual(await fx.api.listPlants(owner), awkward)
        assert.deepEqual(await fx.api.listPlants(owner, '?limit=1&after=4002'), awkward.slice(3))
      })

      test('a wrong or missing content type is a 400', async () => {
        const body = '{"id":8,"name":"x"}'
        const wrongTypes: Record<string, string>[] = [
          { 'content-type': 'text/plain' },
          { 'content-type': 'application/x-www-form-urlencoded' },
          {},
        ]
        for (const headers of wrongTypes) {
          const response = await fx.api.request('POST', '/plants', { token: alice, raw: body, headers })
          assert.equal(response.status, 400, `${JSON.stringify(headers)}: ${response.text}`)
        }
        const charset = await fx.api.request('POST', '/plants', {
          token: alice,
          raw: body,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        })
        assert.equal(charset.status, 200, 'a charset parameter is accepted')
      })

      test('a body over 16 KiB is a 400, and one just under is accepted', async () => {
        const padding = (size: number) => `{"id":9,"name":"big","pad":"${'x'.repeat(size)}"}`
        const tooBig = await fx.api.createPlantRaw(alice, padding(16 * 1024))
        assert.equal(tooBig.status, 400)
        assert.match((tooBig.body as { message: string }).message, /large/)
        const fits = await fx.api.createPlantRaw(alice, padding(16 * 1024 - 40))
        assert.equal(fits.status, 200, fits.text)
      })

      test('an id that exists, whoever owns it, is a 400 that says so, and the plant is unchanged', async () => {
        const response = await fx.api.createPlantRaw(bob, '{"id":101,"name":"impostor"}')
        assert.equal(response.status, 400)
        assert.match((response.body as { message: string }).message, /plant 101 already exists/)
        assert.deepEqual((await fx.api.request('GET', '/plants/101', { token: alice })).body, {
          name: 'Monstera',
          tag: 'tropical',
        })
      })

      test('200 concurrent creates of one id give exactly one 200 and 199 400s', async () => {
        const token = await fx.token('racer')
        const answers = await Promise.all(
          Array.from({ length: 200 }, (_, i) => fx.api.createPlantRaw(token, `{"id":424242,"name":"racer ${i}"}`)),
        )
        const statuses = answers.map((answer) => answer.status)
        assert.equal(statuses.filter((status) => status === 200).length, 1)
        assert.equal(statuses.filter((status) => status === 400).length, 199)
        assert.equal((await fx.api.listPlants(token)).length, 1)
      })
    })

    describe('list', () => {
      let lister: string
      const ids = [5n, -3n, 12n, 7n, 0n, 30n, 21n, 9007199254740993n]
      before(async () => {
        lister = await fx.token('lister')
        for (const id of ids) {
          const tag = id % 2n === 0n ? 'even' : 'odd'
          const answer = await fx.api.createPlant(lister, { id: 7_000_000n + id, name: `p${id}`, tag })
          assert.equal(answer.status, 200, answer.text)
        }
      })
      const sortedNames = () => [...ids].sort((a, b) => (a < b ? -1 : 1)).map((id) => `p${id}`)

      test("lists the caller's plants in ascending id order", async () => {
        const names = (await fx.api.listPlants(lister)).map((plant) => plant.name)
        assert.deepEqual(names, sortedNames())
      })

      test('limit bounds the result, and limit=0 gives an empty list without a next link', async () => {
        const three = await fx.api.request<Plant[]>('GET', '/plants?limit=3', { token: lister })
        assert.deepEqual(
          three.body.map((plant) => plant.name),
          sortedNames().slice(0, 3),
        )
        const none = await fx.api.request<Plant[]>('GET', '/plants?limit=0', { token: lister })
        assert.deepEqual(none.body, [])
        assert.equal(none.headers.get('link'), null)
        const all = await fx.api.request<Plant[]>('GET', '/plants?limit=100', { token: lister })
        assert.equal(all.body.length, ids.length)
        assert.equal(all.headers.get('link'), null, 'no next link when the page is not full')
      })

      for (const value of ['abc', '-1', '2.5', '99999999999', '', '2147483648', '1e2', '0x10', '+5']) {
        test(`limit=${value} is a 400 naming limit`, async () => {
          const response = await fx.api.request('GET', `/plants?limit=${value}`, { token: lister })
          assert.equal(response.status, 400)
          assert.match((response.body as { message: string }).message, /limit/)
        })
      }

      test('limit=2147483647 is accepted', async () => {
        const response = await fx.api.request<Plant[]>('GET', '/plants?limit=2147483647', { token: lister })
        assert.equal(response.status, 200)
        assert.equal(response.body.length, ids.length)
      })

      test('after that is not an int64 is a 400 naming after', async () => {
        for (const value of ['x', '9223372036854775808', '1.5']) {
          const response = await fx.api.request('GET', `/plants?limit=2&after=${value}`, { token: lister })
          assert.equal(response.status, 400)
          assert.match((response.body as { message: string }).message, /after/)
        }
      })

      test('following rel="next" links visits every plant exactly once, in order', async () => {
        for (const limit of [1, 2, 3, 8]) {
          const seen: string[] = []
          let next: string | null = `/plants?limit=${limit}`
          let pages = 0
          while (next !== null && pages < 20) {
            const page: { body: Plant[]; headers: Headers } = await fx.api.request<Plant[]>('GET', next, { token: lister })
            assert.ok(page.body.length <= limit)
            seen.push(...page.body.map((plant) => plant.name))
            const link = page.headers.get('link')
            if (link !== null) {
              assert.equal(page.body.length, limit, 'a next link only on a full page')
              const match = /^<([^>]+)>; rel="next"$/.exec(link)
              assert.ok(match, link)
              next = match[1] as string
            } else {
              next = null
            }
            pages += 1
          }
          assert.deepEqual(seen, sortedNames(), `limit=${limit}`)
        }
      })

      test('tag filters by exact tag and is kept in the next link', async () => {
        const page = await fx.api.request<Plant[]>('GET', '/plants?limit=2&tag=even', { token: lister })
        assert.deepEqual(page.body, [
          { name: 'p0', tag: 'even' },
          { name: 'p12', tag: 'even' },
        ])
        assert.equal(page.headers.get('link'), `</plants?limit=2&after=${7_000_000n + 12n}&tag=even>; rel="next"`)
        const rest = await fx.api.listPlants(lister, `?limit=5&after=${7_000_000n + 12n}&tag=even`)
        assert.deepEqual(rest, [{ name: 'p30', tag: 'even' }])
        assert.deepEqual(await fx.api.listPlants(lister, '?tag=eve'), [])
      })
    })

    describe('get and delete', () => {
      test('delete answers 204 with no body, and the plant is gone from every later list', async () => {
        const token = await fx.token('deleter')
        await fx.api.createPlant(token, { id: 880001, name: 'doomed' })
        await fx.api.createPlant(token, { id: 880002, name: 'kept' })
        const deleted = await fx.api.request('DELETE', '/plants/880001', { token })
        assert.equal(deleted.status, 204)
        assert.equal(deleted.text, '')
        assert.equal(deleted.headers.get('content-type'), null)
        assert.deepEqual(await fx.api.listPlants(token), [{ name: 'kept' }])
        assert.deepEqual(await fx.api.listPlants(fx.adminToken, '?after=880000&limit=1'), [{ name: 'kept' }])
      })

      test('deleting a plant that never existed or is already deleted is a 404', async () => {
        const token = await fx.token('deleter2')
        await fx.api.createPlant(token, { id: 880003, name: 'once' })
        assert.equal((await fx.api.request('DELETE', '/plants/880003', { token })).status, 204)
        const again = await fx.api.request('DELETE', '/plants/880003', { token })
        assert.equal(again.status, 404)
        assert.match((again.body as { message: string }).message, /880003/)
        assert.equal((await fx.api.request('DELETE', '/plants/123456789', { token })).status, 404)
      })

      for (const id of ['abc', '1.5', '01', '+1', '9223372036854775808', '1e3', '%20']) {
        test(`an id of ${id} in the path is a 400 for delete and get`, async () => {
          for (const method of ['DELETE', 'GET']) {
            const response = await fx.api.request(method, `/plants/${id}`, { token: alice })
            assert.equal(response.status, 400, `${method} ${id}: ${response.text}`)
            assert.match((response.body as { message: string }).message, /id/)
          }
        })
      }

      test('get answers the Plant shape', async () => {
        const response = await fx.api.request('GET', '/plants/101', { token: alice })
        assert.equal(response.status, 200)
        assert.deepEqual(response.body, { name: 'Monstera', tag: 'tropical' })
      })
    })
  })
}
