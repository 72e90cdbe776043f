import assert from 'node:assert/strict'
import { test } from 'node:test'
import fc from 'fast-check'
import { pageKey } from '../src/store/shared/plant-query.js'
import { PageCache } from '../src/store/sqlite/page-cache.js'
import type { PlantQuery } from '../src/store/store.js'

// Few characters, among them the key's own separators, so that look-alike owners and tags come up often.
const text = fc.option(fc.string({ unit: fc.constantFrom('a', '|', ':', '-', '1'), maxLength: 6 }), { nil: null })
const id = fc.option(fc.oneof(fc.bigInt({ min: -20n, max: 20n }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })), { nil: null })
const query = fc.record({ owner: text, tag: text, after: id, upTo: id })
const limit = fc.integer({ min: 0, max: 20 })

test('two different queries never share a page key, whatever their owners and tags contain', () => {
  fc.assert(
    fc.property(query, limit, query, limit, (a: PlantQuery, limitA, b: PlantQuery, limitB) => {
      const same = a.owner === b.owner && a.tag === b.tag && a.after === b.after && a.upTo === b.upTo && limitA === limitB
      assert.equal(pageKey(a, limitA) === pageKey(b, limitB), same)
    }),
    { numRuns: 5_000 },
  )
  assert.notEqual(
    pageKey({ owner: 'a|b', tag: 'c', after: null, upTo: null }, 1),
    pageKey({ owner: 'a', tag: 'b|c', after: null, upTo: null }, 1),
  )
  assert.notEqual(
    pageKey({ owner: null, tag: null, after: null, upTo: null }, 1),
    pageKey({ owner: '-', tag: null, after: null, upTo: null }, 1),
  )
})

test('the page cache keeps at most 4 MiB of pages, dropping the oldest first', () => {
  const cache = new PageCache()
  const page = (n: number) => ({ json: String(n).repeat(2 ** 20), count: 1, lastId: BigInt(n) })
  for (let n = 1; n <= 6; n++) cache.set(`page ${n}`, page(n))
  const kept = [1, 2, 3, 4, 5, 6].filter((n) => cache.get(`page ${n}`) !== undefined)
  assert.deepEqual(kept, [3, 4, 5, 6])
  cache.clear()
  assert.equal(cache.get('page 6'), undefined)
})
