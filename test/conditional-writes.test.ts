import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { STORE_KINDS } from '../support/databases.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

// RFC 9110 section 13: If-None-Match on PATCH and DELETE, and If-Match on POST /plants, are
// conditions like any other: a write whose condition is false answers 412 and changes nothing.

for (const kind of STORE_KINDS) {
  describe(`preconditions on every write, on ${kind}`, () => {
    let fx: InProcessFixture
    let token: string
    let nextId = 500
    before(async () => {
      fx = await buildFixture(kind)
      token = await fx.token('conditional')
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
    const nameOf = async (id: number) => (await fx.api.request<{ name: string }>('GET', `/plants/${id}`, { token })).body.name

    test('PATCH with If-None-Match naming the current version (or *) is 412 and changes nothing', async () => {
      const { id, etag } = await created()
      for (const held of [etag, `W/${etag}`, '*']) {
        const answer = await fx.api.request('PATCH', `/plants/${id}`, {
          token,
          json: { name: 'Changed' },
          headers: { 'if-none-match': held },
        })
        assert.equal(answer.status, 412, `${held}: ${answer.text}`)
      }
      assert.equal(await nameOf(id), 'Fern')
    })

    test('PATCH with If-None-Match naming only other versions changes the plant', async () => {
      const { id } = await created()
      const answer = await fx.api.request('PATCH', `/plants/${id}`, {
        token,
        json: { name: 'Changed' },
        headers: { 'if-none-match': '"1"' },
      })
      assert.equal(answer.status, 200, answer.text)
      assert.equal(await nameOf(id), 'Changed')
    })

    test('DELETE with If-None-Match naming the current version is 412 and the plant stays; naming another, it goes', async () => {
      const { id, etag } = await created()
      const refused = await fx.api.request('DELETE', `/plants/${id}`, { token, headers: { 'if-none-match': etag } })
      assert.equal(refused.status, 412, refused.text)
      assert.equal(await nameOf(id), 'Fern')
      const deleted = await fx.api.request('DELETE', `/plants/${id}`, { token, headers: { 'if-none-match': '"1"' } })
      assert.equal(deleted.status, 204, deleted.text)
    })

    test('If-Match and If-None-Match together must both hold', async () => {
      const { id, etag } = await created()
      const both = { 'if-match': etag, 'if-none-match': etag }
      const answer = await fx.api.request('PATCH', `/plants/${id}`, { token, json: { name: 'Changed' }, headers: both })
      assert.equal(answer.status, 412, answer.text)
      assert.equal(await nameOf(id), 'Fern')
    })

    test('POST /plants with If-Match naming tags is 412 and creates nothing (the list has no ETag); with * it creates', async () => {
      const id = nextId++
      const refused = await fx.api.request('POST', '/plants', { token, json: { id, name: 'Fern' }, headers: { 'if-match': '"1"' } })
      assert.equal(refused.status, 412, refused.text)
      assert.equal((await fx.api.request('GET', `/plants/${id}`, { token })).status, 404)
      const made = await fx.api.request('POST', '/plants', { token, json: { id, name: 'Fern' }, headers: { 'if-match': '*' } })
      assert.equal(made.status, 200, made.text)
    })

    test('the document declares If-None-Match on PATCH and DELETE and If-Match on POST /plants', async () => {
      const document = (
        await fx.api.request<{ paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> }>(
          'GET',
          '/openapi.json',
        )
      ).body
      const headersOf = (path: string, method: string) =>
        (document.paths[path]?.[method]?.parameters ?? [])
          .filter((parameter) => parameter.in === 'header')
          .map((parameter) => parameter.name.toLowerCase())
      assert.ok(headersOf('/plants/{id}', 'patch').includes('if-none-match'))
      assert.ok(headersOf('/plants/{id}', 'delete').includes('if-none-match'))
      assert.ok(headersOf('/plants', 'post').includes('if-match'))
    })
  })
}
