import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { STORE_KINDS } from '../support/databases.js'
import { pause, withReceiver } from '../support/receiver.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

/** Two retries 100 ms apart: three attempts in all, within a second. */
const ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_DELAYS: '100ms,100ms', WEBHOOK_TIMEOUT_MS: '2000' }
const MANAGE = ['--scope', 'plants:read,plants:write,webhooks:manage']
const INT64_MAX = 2n ** 63n - 1n

interface Delivery {
  id: string
  event: string
  plantId?: number
  state: string
  attempts: number
  createdAt: string
  lastAttemptAt: string | null
  nextAttemptAt: string | null
  lastStatus: number | null
  lastError: string | null
}

for (const kind of STORE_KINDS) {
  describe(`the deliveries log, redeliver, recover and ping on ${kind}`, () => {
    let fx: InProcessFixture
    let nextId = 70_000n
    before(async () => {
      fx = await buildFixture(kind, ENV)
    })
    after(async () => {
      await fx.close()
    })

    const subscribe = async (token: string, url: string): Promise<string> => {
      const answer = await fx.api.request<{ id: string }>('POST', '/webhooks', { token, json: { url } })
      assert.equal(answer.status, 201, answer.text)
      return answer.body.id
    }
    const create = async (token: string, id = nextId++) => {
      assert.equal((await fx.api.createPlant(token, { id, name: `plant ${id}` })).status, 200)
      return id
    }
    const log = async (token: string, path: string) => {
      const answer = await fx.api.request<Delivery[]>('GET', path, { token })
      assert.equal(answer.status, 200, answer.text)
      return answer
    }
    /** Waits until every event of the log is no longer pending. */
    const settled = async (token: string, subscription: string, count: number) => {
      for (let tries = 0; tries < 100; tries++) {
        const { body } = await log(token, `/webhooks/${subscription}/deliveries`)
        if (body.length >= count && body.every((event) => event.state !== 'pending')) return body
        await pause(100)
      }
      assert.fail('the events did not settle within 10 s')
    }

    test('after 500, 500, 200 the log shows one delivered event: 3 attempts, last status 200, no error, the exact plant id', async () => {
      await withReceiver(async (receiver) => {
        receiver.answer = (_request, index) => ({ status: index < 2 ? 500 : 200 })
        const token = await fx.token('logged', ...MANAGE)
        const subscription = await subscribe(token, receiver.url())
        await create(token, INT64_MAX)
        const [event] = await settled(token, subscription, 1)
        assert.equal(receiver.received.length, 3)
        assert.equal(event?.id, receiver.received[0]?.headers['webhook-id'])
        assert.equal(event?.event, 'newPlant')
        assert.equal(event?.state, 'delivered')
        assert.equal(event?.attempts, 3)
        assert.equal(event?.lastStatus, 200)
        assert.equal(event?.lastError, null)
        assert.equal(event?.nextAttemptAt, null)
        assert.ok(event?.lastAttemptAt !== null && Date.parse(event?.lastAttemptAt ?? '') >= Date.parse(event?.createdAt ?? ''))
        const raw = (
          await fx.app.inject({ method: 'GET', url: `/webhooks/${subscription}/deliveries`, headers: { authorization: `Bearer ${token}` } })
        ).body
        assert.match(raw, /"plantId":9223372036854775807[,}]/, 'the plant id is written exactly')
      })
    })

    test('after its last retry the log shows the event failed, with the last status and error and no next attempt', async () => {
      await withReceiver(async (receiver) => {
        receiver.answer = () => ({ status: 503 })
        const token = await fx.token('failing', ...MANAGE)
        const subscription = await subscribe(token, receiver.url())
        await create(token)
        const [event] = await settled(token, subscription, 1)
        assert.deepEqual([event?.state, event?.attempts, event?.lastStatus, event?.nextAttemptAt], ['failed', 3, 503, null])
        assert.match(event?.lastError ?? '', /^HTTP 503/)
      })
    })

    test('the log pages newest first, and following each Link as given reaches every event once', async () => {
      await withReceiver(async (receiver) => {
        const token = await fx.token('pager', ...MANAGE)
        const subscription = await subscribe(token, receiver.url())
        const ids = [await create(token), await create(token), await create(token), await create(token), await create(token)]
        await settled(token, subscription, 5)
        const pages: Delivery[][] = []
        let path: string | null = `/webhooks/${subscription}/deliveries?limit=2`
        while (path !== null && pages.length < 10) {
          const answer = await log(token, path)
          pages.push(answer.body)
          path = /<([^>]+)>; rel="next"/.exec(answer.headers.get('link') ?? '')?.[1] ?? null
        }
        assert.deepEqual(
          pages.map((page) => page.length),
          [2, 2, 1],
        )
        assert.deepEqual(
          pages.flat().map((event) => BigInt(event.plantId ?? 0)),
          [...ids].reverse(),
        )
        assert.equal((await fx.api.request('GET', `/webhooks/${subscription}/deliveries?limit=251`, { token })).status, 400)
        assert.equal((await fx.api.request('GET', `/webhooks/${subscription}/deliveries?limit=0`, { token })).status, 400)
      })
    })

    test('redeliver sends the event again with the same webhook-id and identical bytes; an unknown one is 404', async () => {
      await withReceiver(async (receiver) => {
        const token = await fx.token('redeliverer', ...MANAGE)
        const subscription = await subscribe(token, receiver.url())
        await create(token)
        const [event] = await settled(token, subscription, 1)
        const answer = await fx.api.request('POST', `/webhooks/${subscription}/deliveries/${event?.id}/redeliver`, { token })
        assert.equal(answer.status, 202, answer.text)
        await receiver.until((received) => received.length >= 2)
        const [first, again] = receiver.received
        assert.equal(again?.headers['webhook-id'], first?.headers['webhook-id'])
        assert.equal(again?.body, first?.body)
        const unknown = await fx.api.request('POST', `/webhooks/${subscription}/deliveries/msg_unknown/redeliver`, { token })
        assert.equal(unknown.status, 404)
      })
    })

    test('recover since a time requeues only the failed events written from then, with their webhook-ids', async () => {
      await withReceiver(async (receiver) => {
        let up = false
        receiver.answer = () => ({ status: up ? 200 : 500 })
        const token = await fx.token('recoverer', ...MANAGE)
        const subscription = await subscribe(token, receiver.url())
        await create(token)
        await settled(token, subscription, 1)
        await pause(20)
        await create(token)
        await create(token)
        const failed = await settled(token, subscription, 3)
        assert.deepEqual(
          failed.map((event) => event.state),
          ['failed', 'failed', 'failed'],
        )
        // The times the log shows are the server's own: since is one of them, as a subscriber would pick it.
        const since = failed[1]?.createdAt as string
        const expected = failed.filter((event) => Date.parse(event.createdAt) >= Date.parse(since)).map((event) => event.id)
        assert.equal(expected.length, 2, JSON.stringify(failed.map((event) => [event.id, event.createdAt, event.plantId])))
        up = true
        const before = receiver.received.length
        const answer = await fx.api.request<{ requeued: number }>('POST', `/webhooks/${subscription}/recover`, { token, json: { since } })
        assert.equal(answer.status, 202, answer.text)
        assert.deepEqual(answer.body, { requeued: 2 })
        await receiver.until((received) => received.length >= before + 2)
        await pause(300)
        const resent = receiver.received.slice(before).map((event) => event.headers['webhook-id'])
        assert.deepEqual(
          resent.sort(),
          failed
            .slice(0, 2)
            .map((event) => event.id)
            .sort(),
        )
        const now = await settled(token, subscription, 3)
        assert.deepEqual(
          now.map((event) => event.state),
          ['delivered', 'delivered', 'failed'],
        )
        assert.equal(
          (await fx.api.request('POST', `/webhooks/${subscription}/recover`, { token, json: { since: 'yesterday' } })).status,
          400,
        )
      })
    })

    test('ping sends {"subscription": id} with plantstore-event: ping, on an enabled and on a disabled subscription', async () => {
      await withReceiver(async (receiver) => {
        const token = await fx.token('pinger', ...MANAGE)
        const subscription = await subscribe(token, receiver.url())
        const first = await fx.api.request<{ id: string }>('POST', `/webhooks/${subscription}/ping`, { token })
        assert.equal(first.status, 202)
        await settled(token, subscription, 1)
        assert.equal((await fx.api.request('PATCH', `/webhooks/${subscription}`, { token, json: { enabled: false } })).status, 200)
        const second = await fx.api.request<{ id: string }>('POST', `/webhooks/${subscription}/ping`, { token })
        await receiver.until((received) => received.length >= 2)
        assert.deepEqual(
          receiver.received.map((event) => [event.headers['plantstore-event'], event.headers['webhook-id'], event.body]),
          [
            ['ping', first.body.id, `{"subscription":"${subscription}"}`],
            ['ping', second.body.id, `{"subscription":"${subscription}"}`],
          ],
        )
        const events = await settled(token, subscription, 2)
        assert.deepEqual(
          events.map((event) => [event.event, 'plantId' in event, event.state]),
          [
            ['ping', false, 'delivered'],
            ['ping', false, 'delivered'],
          ],
        )
      })
    })

    test("another subject's subscription answers 404 on every one of these routes", async () => {
      const owner = await fx.token('log-owner', ...MANAGE)
      const other = await fx.token('log-other', ...MANAGE)
      const subscription = await subscribe(owner, 'http://127.0.0.1:9/hook')
      for (const [method, path, json] of [
        ['GET', `/webhooks/${subscription}/deliveries`, undefined],
        ['POST', `/webhooks/${subscription}/deliveries/msg_x/redeliver`, undefined],
        ['POST', `/webhooks/${subscription}/recover`, { since: '2026-01-01T00:00:00Z' }],
        ['POST', `/webhooks/${subscription}/ping`, undefined],
      ] as const) {
        const answer = await fx.api.request(method, path, { token: other, ...(json ? { json } : {}) })
        assert.equal(answer.status, 404, `${method} ${path}`)
      }
    })
  })
}
