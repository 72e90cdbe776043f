import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { verifyWebhookEvent } from '@plantstore/client'
import { Webhook } from 'standardwebhooks'
import { POSTGRES_UNAVAILABLE, STORE_KINDS, freshDatabase } from '../support/databases.js'
import { Receiver, pause, withReceiver } from '../support/receiver.js'
import { makeToken, startService } from '../support/service.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

const OVERLAP_MS = 1_500
const ENV = {
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  WEBHOOK_RETRY_DELAYS: '100ms,100ms,100ms,100ms',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_SECRET_OVERLAP: `${OVERLAP_MS}ms`,
  WEBHOOK_DISABLE_AFTER: '300ms',
}
const MANAGE = ['--scope', 'plants:read,plants:write,webhooks:manage']

const entries = (headers: Record<string, unknown>) => String(headers['webhook-signature']).split(' ')
/** Whether `secret` verifies the delivery, by standardwebhooks and by the typed client. */
function verifies(secret: string, body: string, headers: Record<string, unknown>): boolean {
  let byPackage = true
  let byClient = true
  try {
    new Webhook(secret).verify(body, headers as Record<string, string>)
  } catch {
    byPackage = false
  }
  try {
    verifyWebhookEvent(body, headers as Record<string, string>, secret)
  } catch {
    byClient = false
  }
  assert.equal(byPackage, byClient, 'standardwebhooks and verifyWebhookEvent agree')
  return byPackage
}

for (const kind of STORE_KINDS) {
  describe(`secret rotation and automatic disable on ${kind}`, () => {
    let fx: InProcessFixture
    let nextId = 90_000n
    before(async () => {
      fx = await buildFixture(kind, ENV)
    })
    after(async () => {
      await fx.close()
    })

    const subscribe = async (token: string, url: string) => {
      const answer = await fx.api.request<{ id: string; secret: string }>('POST', '/webhooks', { token, json: { url } })
      assert.equal(answer.status, 201, answer.text)
      return answer.body
    }
    const rotate = async (token: string, id: string) => {
      const answer = await fx.api.request<{ secret: string; previousSecretExpiresAt: string }>('POST', `/webhooks/${id}/rotate-secret`, {
        token,
      })
      assert.equal(answer.status, 200, answer.text)
      return answer.body
    }
    const create = async (token: string) => {
      const id = nextId++
      assert.equal((await fx.api.createPlant(token, { id, name: `plant ${id}` })).status, 200)
      return id
    }
    /** The next delivery to `receiver`, after a create. */
    const nextDelivery = async (token: string, receiver: Receiver) => {
      const count = receiver.received.length
      await create(token)
      const received = await receiver.until((all) => all.length > count)
      return received[count] as NonNullable<(typeof received)[number]>
    }

    test('during the overlap two v1 entries sign, new and previous, both verify; after it, the new one only', async () => {
      await withReceiver(async (receiver) => {
        const token = await fx.token('rotator', ...MANAGE)
        const made = await subscribe(token, receiver.url())
        const before = await nextDelivery(token, receiver)
        assert.equal(entries(before.headers).length, 1)
        const rotated = await rotate(token, made.id)
        assert.match(rotated.secret, /^whsec_/)
        assert.notEqual(rotated.secret, made.secret)
        const expires = Date.parse(rotated.previousSecretExpiresAt)
        assert.ok(Math.abs(expires - (Date.now() + OVERLAP_MS)) < 1_000, 'the previous secret expires WEBHOOK_SECRET_OVERLAP from now')
        const during = await nextDelivery(token, receiver)
        assert.equal(entries(during.headers).length, 2)
        assert.ok(verifies(rotated.secret, during.body, during.headers), 'the new secret verifies')
        assert.ok(verifies(made.secret, during.body, during.headers), 'the previous secret verifies')
        await pause(Math.max(0, expires - Date.now()) + 200)
        const afterwards = await nextDelivery(token, receiver)
        assert.equal(entries(afterwards.headers).length, 1)
        assert.ok(verifies(rotated.secret, afterwards.body, afterwards.headers))
        assert.equal(verifies(made.secret, afterwards.body, afterwards.headers), false, 'the previous secret no longer verifies')
      })
    })

    test('a rotation during an overlap drops the oldest secret: never more than two sign', async () => {
      await withReceiver(async (receiver) => {
        const token = await fx.token('twice', ...MANAGE)
        const made = await subscribe(token, receiver.url())
        const second = await rotate(token, made.id)
        const third = await rotate(token, made.id)
        const delivery = await nextDelivery(token, receiver)
        assert.equal(entries(delivery.headers).length, 2)
        assert.ok(verifies(third.secret, delivery.body, delivery.headers))
        assert.ok(verifies(second.secret, delivery.body, delivery.headers))
        assert.equal(verifies(made.secret, delivery.body, delivery.headers), false)
      })
    })

    test("rotating another subject's subscription is a 404; secrets never appear in the log", async () => {
      const owner = await fx.token('rotate-owner', ...MANAGE)
      const other = await fx.token('rotate-other', ...MANAGE)
      const made = await subscribe(owner, 'http://127.0.0.1:9/hook')
      assert.equal((await fx.api.request('POST', `/webhooks/${made.id}/rotate-secret`, { token: other })).status, 404)
      const rotated = await rotate(owner, made.id)
      await pause(300)
      for (const secret of [made.secret, rotated.secret]) assert.equal(fx.logs().includes(secret.slice(6)), false)
    })

    test('failing for longer than WEBHOOK_DISABLE_AFTER disables it: reason, failed events, the metric; enabled again, it delivers', async () => {
      await withReceiver(async (receiver) => {
        let up = false
        receiver.answer = () => ({ status: up ? 200 : 500 })
        const token = await fx.token('flaky', ...MANAGE)
        const made = await subscribe(token, receiver.url())
        await create(token)
        let subscription = { enabled: true, disabledReason: null as string | null }
        for (let tries = 0; tries < 50 && subscription.enabled; tries++) {
          await pause(100)
          subscription = (await fx.api.request<typeof subscription>('GET', `/webhooks/${made.id}`, { token })).body
        }
        assert.equal(subscription.enabled, false, 'disabled after failing for 300 ms')
        assert.match(subscription.disabledReason ?? '', /^no 2xx answer since [0-9]{4}-/)
        const log = (await fx.api.request<{ state: string }[]>('GET', `/webhooks/${made.id}/deliveries`, { token })).body
        assert.deepEqual(
          log.map((event) => event.state),
          ['failed'],
        )
        const metrics = (await fx.app.inject({ method: 'GET', url: '/metrics' })).body
        assert.match(metrics, /webhook_subscriptions_disabled_total\{reason="failing"\} 1/)
        const heard = receiver.received.length
        await create(token)
        await pause(400)
        assert.equal(receiver.received.length, heard, 'a disabled subscription gets no event')
        up = true
        const enabled = await fx.api.request<{ enabled: boolean }>('PATCH', `/webhooks/${made.id}`, { token, json: { enabled: true } })
        assert.equal(enabled.body.enabled, true)
        const delivered = await nextDelivery(token, receiver)
        assert.equal(delivered.headers['plantstore-event'], 'newPlant')
      })
    })
  })
}

describe('two PostgreSQL instances share rotations and redeliveries', { skip: POSTGRES_UNAVAILABLE ?? false }, () => {
  test('a rotation made on one instance signs the next attempts of both; a redelivery asked of one is sent', async () => {
    const db = await freshDatabase('postgres')
    const receiver = await Receiver.start()
    const a = await startService({ DATABASE_URL: db.url, ...ENV })
    const b = await startService({ DATABASE_URL: db.url, ...ENV })
    try {
      const token = await makeToken(db.url, 'shared', ...MANAGE)
      const call = async (url: string, method: string, path: string, body?: unknown) => {
        const answer = await fetch(`${url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })
        const text = await answer.text()
        return { status: answer.status, body: text === '' ? null : (JSON.parse(text) as Record<string, string>) }
      }
      const made = (await call(a.url, 'POST', '/webhooks', { url: receiver.url() })).body as { id: string; secret: string }
      const rotated = (await call(a.url, 'POST', `/webhooks/${made.id}/rotate-secret`)).body as { secret: string }
      for (let id = 1; id <= 20; id++) {
        const instance = id % 2 === 0 ? a : b
        assert.equal((await call(instance.url, 'POST', '/plants', { id, name: `shared ${id}` })).status, 200)
      }
      await receiver.until((received) => received.length >= 20, 20_000)
      for (const delivery of receiver.received) {
        assert.equal(entries(delivery.headers).length, 2)
        assert.ok(verifies(rotated.secret, delivery.body, delivery.headers))
        assert.ok(verifies(made.secret, delivery.body, delivery.headers))
      }
      const first = receiver.received[0]
      let log: { id: string; state: string }[] = []
      for (let tries = 0; tries < 50; tries++) {
        log = (await call(b.url, 'GET', `/webhooks/${made.id}/deliveries?limit=250`)).body as unknown as typeof log
        if (log.every((event) => event.state === 'delivered')) break
        await pause(100)
      }
      assert.equal(
        (await call(b.url, 'POST', `/webhooks/${made.id}/deliveries/${String(first?.headers['webhook-id'])}/redeliver`)).status,
        202,
      )
      await receiver.until((received) => received.length >= 21, 10_000)
      const again = receiver.received[20]
      assert.equal(again?.headers['webhook-id'], first?.headers['webhook-id'])
      assert.equal(again?.body, first?.body)
    } finally {
      await Promise.all([a.stop(), b.stop()])
      await receiver.close()
      await db.drop()
    }
  })
})
