import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import fc from 'fast-check'
import { STORE_KINDS } from '../support/databases.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

/** `{"id":ID,"name":"` + bytes + `"}`: a body whose name holds exactly these bytes. */
const bodyWithNameBytes = (id: number, bytes: number[]) =>
  Buffer.concat([Buffer.from(`{"id":${id},"name":"`), Buffer.from(bytes), Buffer.from('"}')])

for (const kind of STORE_KINDS) {
  describe(`text is exact, on ${kind}`, () => {
    let fx: InProcessFixture
    let token: string
    before(async () => {
      fx = await buildFixture(kind)
      token = await fx.token('writer')
    })
    after(() => fx.close())

    const post = (body: string | Buffer) =>
      fx.api.request('POST', '/plants', { token, raw: body, headers: { 'content-type': 'application/json' } })

    const refused: [string, string | Buffer, RegExp][] = [
      ['a byte that is never UTF-8 (0xFF)', bodyWithNameBytes(1, [0x61, 0xff]), /UTF-8/],
      ['an overlong encoding of "/" (C0 AF)', bodyWithNameBytes(2, [0xc0, 0xaf]), /UTF-8/],
      ['a sequence cut short (E2 82)', bodyWithNameBytes(3, [0xe2, 0x82]), /UTF-8/],
      ['a surrogate encoded in UTF-8 (ED A0 80)', bodyWithNameBytes(4, [0xed, 0xa0, 0x80]), /UTF-8/],
      ['a continuation byte alone (80)', bodyWithNameBytes(5, [0x80]), /UTF-8/],
      ['an escaped lone high surrogate', '{"id":6,"name":"a\\ud800"}', /surrogate/],
      ['an escaped lone low surrogate', '{"id":7,"name":"\\udc00b"}', /surrogate/],
      ['a reversed surrogate pair', '{"id":8,"name":"\\udc00\\ud800"}', /surrogate/],
      ['a lone surrogate in the tag', '{"id":9,"name":"ok","tag":"\\ud83c"}', /surrogate/],
      ['a lone surrogate in an ignored property', '{"id":10,"name":"ok","note":"\\udfff"}', /surrogate/],
    ]
    for (const [what, body, message] of refused) {
      test(`${what} is a 400 that says why, and nothing is stored`, async () => {
        const response = await post(body)
        assert.equal(response.status, 400, response.text)
        assert.match((response.body as { message: string }).message, message)
        assert.deepEqual(await fx.api.listPlants(token), [])
      })
    }

    const kept: [string, string, string | undefined][] = [
      ['astral characters', '🌿 Monstera 𝔡𝔢𝔩𝔦𝔠𝔦𝔬𝔰𝔞', '🪴'],
      ['an astral character written as an escaped pair', '\ud83c\udf3f', undefined],
      ['combining marks', 'Pile\u0301a e\u0301\u0308', 'cafe\u0301'],
      ['right-to-left text', 'שלום עולם', 'مرحبا'],
      ['bidirectional controls', '\u202eabc\u202c', '\u200f'],
      ['a non-character and a BOM inside', 'x\uffffy\ufeffz', '\ufffd'],
    ]
    let nextId = 100
    for (const [what, name, tag] of kept) {
      test(`${what} come back exactly from create, get and list`, async () => {
        const id = nextId++
        const plant = tag === undefined ? { name } : { name, tag }
        const created = await fx.api.createPlant(token, { id, ...plant })
        assert.equal(created.status, 200, created.text)
        assert.deepEqual(created.body, plant)
        assert.deepEqual((await fx.api.request('GET', `/plants/${id}`, { token })).body, plant)
        assert.deepEqual(await fx.api.listPlants(token, `?after=${id - 1}&limit=1`), [plant])
      })
    }

    test('any Unicode name and tag (fast-check, full code point range) comes back identical from create, get and list', async () => {
      // Names must hold a character other than white space; U+0000 is refused on both stores.
      const text = (max: number) => fc.string({ unit: 'binary', maxLength: max }).filter((value) => !value.includes('\u0000'))
      const name = text(200).filter((value) => value.length > 0 && /\S/u.test(value) && [...value].length <= 200)
      const tag = fc.option(
        text(100).filter((value) => [...value].length <= 100),
        { nil: undefined },
      )
      let id = 1_000_000
      await fc.assert(
        fc.asyncProperty(name, tag, async (plantName, plantTag) => {
          id += 1
          const plant = plantTag === undefined ? { name: plantName } : { name: plantName, tag: plantTag }
          const created = await fx.api.createPlant(token, { id, ...plant })
          assert.equal(created.status, 200, created.text)
          assert.deepEqual(created.body, plant)
          assert.deepEqual((await fx.api.request('GET', `/plants/${id}`, { token })).body, plant)
          assert.deepEqual(await fx.api.listPlants(token, `?after=${id - 1}&limit=1`), [plant])
        }),
        { numRuns: 150 },
      )
    })
  })
}
