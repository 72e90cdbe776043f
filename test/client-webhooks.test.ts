import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { PlantStoreClient, PlantStoreError, WEBHOOK_EVENT_TYPES, WebhookVerificationError, verifyWebhookEvent } from '@plantstore/client'
import { Webhook } from 'standardwebhooks'
import { EVENT_NAMES } from '../src/api/events.js'
import { STORE_KINDS } from '../support/databases.js'
import { Receiver, pause } from '../support/receiver.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'

const ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_DELAYS: '100ms,100ms', WEBHOOK_TIMEOUT_MS: '2000' }
const TWO_53_PLUS_1 = 2n ** 53n + 1n

for (const kind of STORE_KINDS) {
  describe(`@plantstore/client's webhook methods on ${kind}`, () => {
    let fx: ServiceFixture
    let client: PlantStoreClient
    let receiver: Receiver
    before(async () => {
      fx = await startFixture(kind, ENV)
      client = new PlantStoreClient({
        baseUrl: fx.service.url,
        token: await fx.token('hooked', '--scope', 'plants:read,plants:write,webhooks:manage'),
      })
      receiver = await Receiver.start()
    })
    after(async () => {
      await receiver.close()
      await fx.close()
    })

    test('create, list, get, update and delete a subscription through the client', async () => {
      const made = await client.createSubscription(receiver.url('/client'), { events: ['newPlant', 'plantDeleted'] })
      assert.match(made.secret, /^whsec_/)
      assert.deepEqual(made.events, ['newPlant', 'plantDeleted'])
      assert.deepEqual(
        (await client.listSubscriptions()).map((subscription) => subscription.id),
        [made.id],
      )
      const updated = await client.updateSubscription(made.id, { enabled: false })
      assert.equal(updated.enabled, false)
      assert.equal((await client.getSubscription(made.id)).enabled, false)
      await client.deleteSubscription(made.id)
      await assert.rejects(client.getSubscription(made.id), (error: unknown) => error instanceof PlantStoreError && error.status === 404)
    })

    test('verifyWebhookEvent reads newPlant and plantDeleted deliveries exactly, and refuses a changed body', async () => {
      receiver.received.length = 0
      const made = await client.createSubscription(receiver.url('/verify'), { events: ['newPlant', 'plantDeleted'] })
      await client.createPlant({ id: TWO_53_PLUS_1, name: 'exact' })
      await client.deletePlant(TWO_53_PLUS_1)
      await receiver.until((received) => received.length >= 2)
      await pause(200)
      const events = receiver.received.map((delivery) =>
        verifyWebhookEvent(delivery.body, delivery.headers as Record<string, string>, made.secret),
      )
      const byType = Object.fromEntries(events.map((event) => [event.type, event]))
      assert.deepEqual(byType.newPlant, { type: 'newPlant', plant: { id: TWO_53_PLUS_1, name: 'exact' } })
      assert.deepEqual(byType.plantDeleted, { type: 'plantDeleted', id: TWO_53_PLUS_1 })
      for (const delivery of receiver.received) new Webhook(made.secret).verify(delivery.body, delivery.headers as Record<string, string>)
      const [first] = receiver.received
      assert.throws(
        () => verifyWebhookEvent(first?.body.replace('exact', 'other') ?? '', first?.headers as Record<string, string>, made.secret),
        WebhookVerificationError,
      )
      await client.deleteSubscription(made.id)
    })

    test('verifyWebhookEvent reads a real delivery of every event type the service sends (its catalogue, and ping)', async () => {
      receiver.received.length = 0
      const made = await client.createSubscription(receiver.url('/every'), { events: [...EVENT_NAMES] })
      await client.createPlant({ id: TWO_53_PLUS_1 + 7n, name: 'made' })
      await client.updatePlant(TWO_53_PLUS_1 + 7n, { name: 'changed', tag: 'new' })
      await client.deletePlant(TWO_53_PLUS_1 + 7n)
      const pingId = await client.ping(made.id)
      const sent = [...EVENT_NAMES, 'ping']
      await receiver.until((received) => sent.every((type) => received.some((delivery) => delivery.headers['plantstore-event'] === type)))
      const events = receiver.received.map((delivery) =>
        verifyWebhookEvent(delivery.body, delivery.headers as Record<string, string>, made.secret),
      )
      const byType = Object.fromEntries(events.map((event) => [event.type, event]))
      assert.deepEqual(Object.keys(byType).sort(), [...sent].sort(), 'every type the service sent is read')
      assert.deepEqual([...WEBHOOK_EVENT_TYPES].sort(), [...sent].sort(), "the client's list is the service's catalogue and ping")
      assert.deepEqual(byType.newPlant, { type: 'newPlant', plant: { id: TWO_53_PLUS_1 + 7n, name: 'made' } })
      assert.deepEqual(byType.plantUpdated, { type: 'plantUpdated', plant: { id: TWO_53_PLUS_1 + 7n, name: 'changed', tag: 'new' } })
      assert.deepEqual(byType.plantDeleted, { type: 'plantDeleted', id: TWO_53_PLUS_1 + 7n })
      assert.deepEqual(byType.ping, { type: 'ping', subscription: made.id })
      assert.equal(receiver.received.find((delivery) => delivery.headers['plantstore-event'] === 'ping')?.headers['webhook-id'], pingId)
      await client.deleteSubscription(made.id)
    })

    test('the deliveries log, redeliver, recover, ping and rotation through the client, ids exact', async () => {
      receiver.received.length = 0
      const made = await client.createSubscription(receiver.url('/log'))
      await client.createPlant({ id: TWO_53_PLUS_1 + 1n, name: 'logged' })
      await receiver.until((received) => received.length >= 1)
      let page = await client.listDeliveries(made.id, { limit: 1 })
      for (let tries = 0; tries < 50 && page.deliveries[0]?.state !== 'delivered'; tries++) {
        await pause(100)
        page = await client.listDeliveries(made.id, { limit: 1 })
      }
      const [delivery] = page.deliveries
      assert.deepEqual(
        [delivery?.plantId, delivery?.state, delivery?.attempts, delivery?.lastStatus],
        [TWO_53_PLUS_1 + 1n, 'delivered', 1, 200],
      )
      assert.equal(page.next !== null, true, 'a full page has a next link')
      assert.deepEqual((await client.listDeliveries(made.id, { next: page.next as string })).deliveries, [])
      await client.redeliver(made.id, delivery?.id as string)
      await receiver.until((received) => received.length >= 2)
      assert.equal(await client.recover(made.id, new Date(0)), 0, 'nothing failed')
      const pingId = await client.ping(made.id)
      await receiver.until((received) => received.length >= 3)
      assert.equal(receiver.received[2]?.headers['webhook-id'], pingId)
      const rotated = await client.rotateSecret(made.id)
      assert.deepEqual(
        verifyWebhookEvent(receiver.received[2]?.body ?? '', receiver.received[2]?.headers as Record<string, string>, made.secret),
        {
          type: 'ping',
          subscription: made.id,
        },
      )
      assert.match(rotated.secret, /^whsec_/)
      await client.deleteSubscription(made.id)
    })
  })
}
