import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { STORE_KINDS } from '../support/databases.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

// RFC 9110 section 13.2.2: If-Match is evaluated first, on a read as on a write; a malformed
// condition is a 400 on every route that takes it.

for (const kind of STORE_KINDS) {
  describe(`conditions on reads and creates, on ${kind}`, () => {
    let fx: InProcessFixture
    let token: string
    let nextId = 700
    before(async () => {
      fx = await buildFixture(kind)
      token = await fx.token('reader')
    })
    after(async () => {
      await fx.close()
    })

    const created = async (): Promise<{ id: number; etag: string }> => {
      const id = nextId++
      const answer = await fx.api.request('POST', '/plants', { token, json: { id, name: 'Fern' } })
      assert.equal(answer.status, 200, answer.text)
      return { id, etag: answer.headers.get('etag') as string }
    }
    const get = (path: string, headers: Record<string, string>) => fx.api.request('GET', path, { token, headers })

    test('GET /plants/{id} with an If-Match naming no current version is 412; naming it (or *) is 200', async () => {
      const { id, etag } = await created()
      for (const other of ['"1"', `W/${etag}`, '"abc"']) {
        const refused = await get(`/plants/${id}`, { 'if-match': other })
        assert.equal(refused.status, 412, `${other}: ${refused.text}`)
        assert.equal((refused.body as { error: number }).error, 412)
      }
      for (const current of [etag, `"1", ${etag}`, '*']) {
        const read = await get(`/plants/${id}`, { 'if-match': current })
        assert.deepEqual([read.status, read.headers.get('etag')], [200, etag], current)
      }
    })

    test('GET /plants/{id} with a malformed If-Match is a 400 naming the header; a missing plant stays 404', async () => {
      const { id } = await created()
      const malformed = await get(`/plants/${id}`, { 'if-match': '3' })
      assert.equal(malformed.status, 400, malformed.text)
      assert.match((malformed.body as { message: string }).message, /If-Match/)
      assert.equal((await get('/plants/987654321', { 'if-match': '"1"' })).status, 404)
    })

    test('GET /plants/{id}: If-Match is evaluated before If-None-Match', async () => {
      const { id, etag } = await created()
      const mismatch = await get(`/plants/${id}`, { 'if-match': '"1"', 'if-none-match': etag })
      assert.equal(mismatch.status, 412, mismatch.text)
      const both = await get(`/plants/${id}`, { 'if-match': etag, 'if-none-match': etag })
      assert.equal(both.status, 304, both.text)
    })
    test('POST /plants with If-None-Match: * creates a plant that does not exist, and is 412 when it exists', async () => {
      const id = nextId++
      const made = await fx.api.request('POST', '/plants', { token, json: { id, name: 'Fern' }, headers: { 'if-none-match': '*' } })
      assert.equal(made.status, 200, made.text)
      const again = await fx.api.request('POST', '/plants', { token, json: { id, name: 'Ivy' }, headers: { 'if-none-match': '*' } })
      assert.equal(again.status, 412, again.text)
      assert.match((again.body as { message: string }).message, new RegExp(`plant ${id} already exists`))
      assert.equal(((await get(`/plants/${id}`, {})).body as { name: string }).name, 'Fern')
    })

    test("POST /plants with If-None-Match: * is 412 for another owner's plant too, as the 400 already exists would say", async () => {
      const id = nextId++
      const other = await fx.token('someone-else')
      assert.equal((await fx.api.request('POST', '/plants', { token: other, json: { id, name: 'Fern' } })).status, 200)
      const refused = await fx.api.request('POST', '/plants', { token, json: { id, name: 'Ivy' }, headers: { 'if-none-match': '*' } })
      assert.equal(refused.status, 412, refused.text)
    })

    test('POST /plants with If-None-Match naming tags creates a new plant; an existing one stays a 400 already exists', async () => {
      const id = nextId++
      const made = await fx.api.request('POST', '/plants', { token, json: { id, name: 'Fern' }, headers: { 'if-none-match': '"1"' } })
      assert.equal(made.status, 200, made.text)
      const held = made.headers.get('etag') as string
      const current = await fx.api.request('POST', '/plants', { token, json: { id, name: 'Ivy' }, headers: { 'if-none-match': held } })
      assert.equal(current.status, 412, current.text)
      const other = await fx.api.request('POST', '/plants', { token, json: { id, name: 'Ivy' }, headers: { 'if-none-match': '"1"' } })
      assert.equal(other.status, 400, other.text)
    })

    test('POST /plants with a malformed If-None-Match is a 400 naming the header, and creates nothing', async () => {
      const id = nextId++
      const refused = await fx.api.request('POST', '/plants', { token, json: { id, name: 'Fern' }, headers: { 'if-none-match': 'abc' } })
      assert.equal(refused.status, 400, refused.text)
      assert.match((refused.body as { message: string }).message, /If-None-Match/)
      assert.equal((await get(`/plants/${id}`, {})).status, 404)
    })
    test('GET /plants: the list has no ETag, so If-Match with tags is 412 and * reads it', async () => {
      await created()
      const refused = await get('/plants', { 'if-match': '"1"' })
      assert.equal(refused.status, 412, refused.text)
      assert.match((refused.body as { message: string }).message, /no entity tag/)
      const read = await get('/plants', { 'if-match': '*' })
      assert.equal(read.status, 200, read.text)
      assert.ok(Array.isArray(read.body))
    })

    test('GET /plants: If-None-Match with tags never matches (200); * matches the list that exists (304, no body)', async () => {
      await created()
      const read = await get('/plants', { 'if-none-match': '"1", W/"2"' })
      assert.equal(read.status, 200, read.text)
      const current = await get('/plants', { 'if-none-match': '*' })
      assert.deepEqual([current.status, current.text], [304, ''])
    })

    test('GET /plants: a malformed If-Match or If-None-Match is a 400 naming the header', async () => {
      for (const header of ['If-Match', 'If-None-Match']) {
        const refused = await get('/plants', { [header.toLowerCase()]: '1' })
        assert.equal(refused.status, 400, refused.text)
        assert.match((refused.body as { message: string }).message, new RegExp(header))
      }
    })
  })
}
