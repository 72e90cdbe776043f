import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ifMatchOf, ifNoneMatchOf } from '../src/http/entity-tags.js'

test('empty elements of an If-Match or If-None-Match list are ignored (RFC 9110 5.6.1.2)', () => {
  for (const header of ['"3",  ', ' ,"3"', '"x",,"3"']) {
    assert.deepEqual(ifMatchOf(header), [3], header)
    assert.deepEqual(ifNoneMatchOf(header), [3], header)
  }
})

test('a list of nothing but empty elements is still malformed', () => {
  assert.throws(() => ifMatchOf(' , ,'), /If-Match/)
  assert.throws(() => ifNoneMatchOf(','), /If-None-Match/)
})
