import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { STORE_KINDS } from '../support/databases.js'
import { Receiver, pause, withReceiver } from '../support/receiver.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

/** The receivers listen on loopback, which webhooks may reach only when allowed. */
const WEBHOOK_TEST_ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_DELAYS: '100ms,100ms,100ms', WEBHOOK_TIMEOUT_MS: '2000' }
const MANAGE = ['--scope', 'plants:read,plants:write,webhooks:manage']
const ADMIN = ['--scope', 'plants:read,plants:write,plants:admin,webhooks:manage']
const INT64_MAX = 2n ** 63n - 1n

interface Subscription {
  id: string
  url: string
  events: string[]
  allPlants: boolean
  enabled: boolean
  disabledReason: string | null
  createdAt: string
  secret?: string
}

for (const kind of STORE_KINDS) {
  describe(`webhook event types and subscription changes on ${kind}`, () => {
    let fx: InProcessFixture
    let nextId = 5_000n
    before(async () => {
      fx = await buildFixture(kind, WEBHOOK_TEST_ENV)
    })
    after(async () => {
      await fx.close()
    })

    const subscribe = async (token: string, json: Record<string, unknown>): Promise<Subscription> => {
      const answer = await fx.api.request<Subscription>('POST', '/webhooks', { token, json })
      assert.equal(answer.status, 201, answer.text)
      return answer.body
    }
    const create = async (token: string, id = nextId++) => {
      assert.equal((await fx.api.createPlant(token, { id, name: `plant ${id}` })).status, 200)
      return id
    }
    const remove = async (token: string, id: bigint) => (await fx.api.request('DELETE', `/plants/${id}`, { token })).status
    /** The event types and bodies a receiver got, in order of arrival. */
    const events = (receiver: Receiver) => receiver.received.map((event) => `${String(event.headers['plantstore-event'])} ${event.body}`)

    test('events defaults to newPlant, and a subscription JSON carries events, enabled, disabledReason and createdAt', async () => {
      const token = await fx.token('defaults', ...MANAGE)
      const made = await subscribe(token, { url: 'http://127.0.0.1:9/hook' })
      assert.deepEqual(made.events, ['newPlant'])
      assert.equal(made.enabled, true)
      assert.equal(made.disabledReason, null)
      assert.ok(!Number.isNaN(Date.parse(made.createdAt)))
      const got = await fx.api.request<Subscription>('GET', `/webhooks/${made.id}`, { token })
      assert.equal(got.status, 200)
      const { secret: _secret, ...shown } = made
      assert.deepEqual({ ...got.body, createdAt: made.createdAt }, shown)
      assert.equal('secret' in got.body, false)
    })

    const badEvents: [string, unknown][] = [
      ['an empty array', []],
      ['an unknown name', ['plantRenamed']],
      ['a name twice', ['newPlant', 'newPlant']],
      ['not an array', 'newPlant'],
      ['null', null],
    ]
    for (const [what, value] of badEvents) {
      test(`events as ${what} is a 400 and makes no subscription`, async () => {
        const token = await fx.token(`bad-events-${what.replaceAll(' ', '-')}`, ...MANAGE)
        const answer = await fx.api.request('POST', '/webhooks', { token, json: { url: 'http://127.0.0.1:9/hook', events: value } })
        assert.equal(answer.status, 400)
        assert.deepEqual((await fx.api.request<unknown[]>('GET', '/webhooks', { token })).body, [])
      })
    }

    test('each subscription gets only the event types it asked for: newPlant, plantDeleted or both', async () => {
      await withReceiver(async (receiver) => {
        const token = await fx.token('filtered', ...MANAGE)
        await subscribe(token, { url: receiver.url('/new'), events: ['newPlant'] })
        await subscribe(token, { url: receiver.url('/deleted'), events: ['plantDeleted'] })
        await subscribe(token, { url: receiver.url('/both'), events: ['plantDeleted', 'newPlant'] })
        const id = await create(token)
        assert.equal(await remove(token, id), 204)
        await receiver.until((received) => received.length >= 4)
        await pause(300)
        const byPath = (path: string) =>
          receiver.received.filter((event) => event.path === path).map((event) => event.headers['plantstore-event'])
        assert.deepEqual(byPath('/new'), ['newPlant'])
        assert.deepEqual(byPath('/deleted'), ['plantDeleted'])
        assert.deepEqual(byPath('/both').sort(), ['newPlant', 'plantDeleted'])
      })
    })

    test('a 204 delete sends plantDeleted with exactly {"id": <int64>}, signed; a refused delete sends nothing', async () => {
      await withReceiver(async (receiver) => {
        const token = await fx.token('deleter', ...MANAGE)
        const reader = await fx.token('deleter', '--scope', 'plants:read')
        const made = await subscribe(token, { url: receiver.url(), events: ['plantDeleted'] })
        await create(token, INT64_MAX)
        assert.equal(await remove(reader, INT64_MAX), 403)
        assert.equal(await remove(token, INT64_MAX - 1n), 404)
        assert.equal((await fx.api.request('DELETE', `/plants/${INT64_MAX}`, {})).status, 401)
        assert.equal(await remove(token, INT64_MAX), 204)
        assert.equal(await remove(token, INT64_MAX), 404, 'a second delete of the same plant is refused')
        const [event] = await receiver.until((received) => received.length >= 1)
        await pause(300)
        assert.deepEqual(events(receiver), [`plantDeleted {"id":${INT64_MAX}}`])
        assert.equal(event?.body, '{"id":9223372036854775807}')
        const verified = new Webhook(made.secret as string).verify(event?.body as string, event?.headers as Record<string, string>)
        assert.ok(verified)
      })
    })

    test('plantDeleted keeps to tenancy both ways; an admin subscription hears every deletion', async () => {
      await withReceiver(async (receiver) => {
        const alice = await fx.token('alice-del', ...MANAGE)
        const bob = await fx.token('bob-del', ...MANAGE)
        const admin = await fx.token('admin-del', ...ADMIN)
        await subscribe(alice, { url: receiver.url('/alice'), events: ['plantDeleted'] })
        await subscribe(bob, { url: receiver.url('/bob'), events: ['plantDeleted'] })
        const all = await subscribe(admin, { url: receiver.url('/admin'), events: ['plantDeleted'] })
        assert.equal(all.allPlants, true)
        const alices = await create(alice)
        const bobs = await create(bob)
        assert.equal(await remove(bob, alices), 404, "bob cannot delete alice's plant")
        assert.equal(await remove(alice, alices), 204)
        assert.equal(await remove(admin, bobs), 204, "the admin deletes bob's plant")
        await receiver.until((received) => received.length >= 4)
        await pause(300)
        const byPath = (path: string) => receiver.received.filter((event) => event.path === path).map((event) => event.body)
        assert.deepEqual(byPath('/alice'), [`{"id":${alices}}`])
        assert.deepEqual(byPath('/bob'), [`{"id":${bobs}}`])
        assert.deepEqual(byPath('/admin').sort(), [`{"id":${alices}}`, `{"id":${bobs}}`].sort())
        // The admin subscription hears every later test's deletions; a later receiver may get this port.
        assert.equal((await fx.api.request('DELETE', `/webhooks/${all.id}`, { token: admin })).status, 204)
      })
    })

    test('PATCH changes url and events (application/json or merge-patch); unknown fields and bad values are 400s that change nothing', async () => {
      await withReceiver(async (receiver) => {
        const token = await fx.token('patcher', ...MANAGE)
        const made = await subscribe(token, { url: receiver.url('/before') })
        const patched = await fx.api.request<Subscription>('PATCH', `/webhooks/${made.id}`, {
          token,
          json: { url: receiver.url('/after'), events: ['plantDeleted'] },
          headers: { 'content-type': 'application/merge-patch+json' },
        })
        assert.equal(patched.status, 200, patched.text)
        assert.deepEqual([patched.body.url, patched.body.events], [receiver.url('/after'), ['plantDeleted']])
        for (const json of [{ secret: 'whsec_x' }, { events: [] }, { enabled: 'yes' }, { url: 'not a url' }, {}]) {
          const refused = await fx.api.request('PATCH', `/webhooks/${made.id}`, { token, json })
          assert.equal(refused.status, 400, JSON.stringify(json))
        }
        const refusedUrl = await fx.api.request('PATCH', `/webhooks/${made.id}`, { token, json: { url: 'http://10.0.0.7/hook' } })
        assert.equal(refusedUrl.status, 400, 'a URL the outbound rules refuse')
        assert.match((refusedUrl.body as { message: string }).message, /10\.0\.0\.7/)
        const now = await fx.api.request<Subscription>('GET', `/webhooks/${made.id}`, { token })
        assert.deepEqual([now.body.url, now.body.events], [receiver.url('/after'), ['plantDeleted']], 'the refused PATCHes changed nothing')
        const id = await create(token)
        assert.equal(await remove(token, id), 204)
        await receiver.until((received) => received.length >= 1)
        await pause(300)
        assert.deepEqual(
          receiver.received.map((event) => [event.path, event.headers['plantstore-event']]),
          [['/after', 'plantDeleted']],
        )
      })
    })

    test('disabled by PATCH, a subscription gets no event; enabled again, it gets those from then on', async () => {
      await withReceiver(async (receiver) => {
        const token = await fx.token('toggler', ...MANAGE)
        const made = await subscribe(token, { url: receiver.url() })
        const off = await fx.api.request<Subscription>('PATCH', `/webhooks/${made.id}`, { token, json: { enabled: false } })
        assert.deepEqual([off.status, off.body.enabled, typeof off.body.disabledReason], [200, false, 'string'])
        const missed = await create(token)
        const on = await fx.api.request<Subscription>('PATCH', `/webhooks/${made.id}`, { token, json: { enabled: true } })
        assert.deepEqual([on.body.enabled, on.body.disabledReason], [true, null])
        const heard = await create(token)
        await receiver.until((received) => received.length >= 1)
        await pause(300)
        assert.deepEqual(
          receiver.received.map((event) => event.body),
          [`{"id":${heard},"name":"plant ${heard}"}`],
        )
        assert.notEqual(missed, heard)
      })
    })

    test("another subject's subscription answers 404 to GET and PATCH, exactly as a missing one", async () => {
      const owner = await fx.token('owner-sub', ...MANAGE)
      const other = await fx.token('other-sub', ...MANAGE)
      const made = await subscribe(owner, { url: 'http://127.0.0.1:9/hook' })
      for (const [method, json] of [
        ['GET', undefined],
        ['PATCH', { enabled: false }],
      ] as const) {
        const theirs = await fx.api.request(method, `/webhooks/${made.id}`, { token: other, ...(json ? { json } : {}) })
        const missing = await fx.api.request(method, '/webhooks/wh_missing', { token: other, ...(json ? { json } : {}) })
        assert.equal(theirs.status, 404)
        assert.equal(missing.status, 404)
      }
      const still = await fx.api.request<Subscription>('GET', `/webhooks/${made.id}`, { token: owner })
      assert.equal(still.body.enabled, true)
    })
  })
}
