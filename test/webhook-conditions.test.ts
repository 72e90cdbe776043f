import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

// A webhook subscription has no version and no ETag: If-Match and If-None-Match on its writes
// cannot be evaluated, so they are refused (400, nothing changes) rather than silently ignored.

describe('conditions on webhook subscription writes', () => {
  let fx: InProcessFixture
  let token: string
  before(async () => {
    fx = await buildFixture('sqlite', { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' })
    token = await fx.token('hooks', '--scope', 'webhooks:manage')
  })
  after(async () => {
    await fx.close()
  })

  const subscribe = async (): Promise<string> => {
    const made = await fx.api.request<{ id: string }>('POST', '/webhooks', { token, json: { url: 'http://127.0.0.1:9/hook' } })
    assert.equal(made.status, 201, made.text)
    return made.body.id
  }

  for (const [header, value] of [
    ['if-match', '"1"'],
    ['if-match', '*'],
    ['if-none-match', '"1"'],
  ] as const) {
    test(`PATCH /webhooks/{id} with ${header}: ${value} is a 400 saying subscriptions have no entity tags; nothing changes`, async () => {
      const id = await subscribe()
      const refused = await fx.api.request('PATCH', `/webhooks/${id}`, { token, json: { enabled: false }, headers: { [header]: value } })
      assert.equal(refused.status, 400, refused.text)
      assert.match((refused.body as { message: string }).message, /no entity tag/)
      const now = await fx.api.request<{ enabled: boolean }>('GET', `/webhooks/${id}`, { token })
      assert.equal(now.body.enabled, true)
    })

    test(`DELETE /webhooks/{id} with ${header}: ${value} is a 400 and the subscription stays`, async () => {
      const id = await subscribe()
      const refused = await fx.api.request('DELETE', `/webhooks/${id}`, { token, headers: { [header]: value } })
      assert.equal(refused.status, 400, refused.text)
      assert.match((refused.body as { message: string }).message, /no entity tag/)
      assert.equal((await fx.api.request('GET', `/webhooks/${id}`, { token })).status, 200)
    })
  }

  test('the document declares If-Match and If-None-Match on PATCH and DELETE /webhooks/{id}, saying they are refused', async () => {
    const document = (
      await fx.api.request<{
        paths: Record<string, Record<string, { parameters?: { name: string; in: string; description?: string }[] }>>
      }>('GET', '/openapi.json')
    ).body
    for (const method of ['patch', 'delete']) {
      const headers = (document.paths['/webhooks/{id}']?.[method]?.parameters ?? []).filter((parameter) => parameter.in === 'header')
      for (const name of ['if-match', 'if-none-match']) {
        const declared = headers.find((parameter) => parameter.name.toLowerCase() === name)
        assert.ok(declared, `${method} declares ${name}`)
        assert.match(declared.description ?? '', /400/, `${method} ${name} says it is refused`)
      }
    }
  })
})
