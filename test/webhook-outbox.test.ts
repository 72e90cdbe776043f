import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { closeSync, openSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { POSTGRES_UNAVAILABLE, STORE_KINDS, freshDatabase } from '../support/databases.js'
import { Receiver, pause, withReceiver } from '../support/receiver.js'
import { type Service, makeToken, startService, tempFolder } from '../support/service.js'
import { Api } from './helpers/api.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

// The outbox under the races and faults users cause: a subscription deleted while its events
// are written or attempted, a stop during an attempt, a full disk, a redeliver during an attempt.
// Across all of them: a `delivered` entry is a 2xx its receiver sent, no pending event outlives
// its subscription, and a new subscription's new event still arrives.

const ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_DELAYS: '100ms,100ms', WEBHOOK_TIMEOUT_MS: '10000' }
const MANAGE = ['--scope', 'plants:read,plants:write,webhooks:manage']

interface Delivery {
  id: string
  state: string
  attempts: number
  lastStatus: number | null
}

interface Subscribed {
  id: string
  createdAt: string
}

const webhookId = (request: { headers: Record<string, unknown> }) => request.headers['webhook-id'] as string

async function subscribe(api: Api, token: string, url: string): Promise<Subscribed> {
  const answer = await api.request<Subscribed>('POST', '/webhooks', { token, json: { url } })
  assert.equal(answer.status, 201, answer.text)
  return answer.body
}

async function deliveries(api: Api, token: string, subscription: string): Promise<Delivery[]> {
  const answer = await api.request<Delivery[]>('GET', `/webhooks/${subscription}/deliveries`, { token })
  assert.equal(answer.status, 200, answer.text)
  return answer.body
}

/** Polls until `check` holds, within `timeoutMs`; fails with `what` otherwise. */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const since = Date.now()
  while (Date.now() - since < timeoutMs) {
    if (await check()) return
    await pause(50)
  }
  assert.fail(`${what}: not within ${timeoutMs} ms`)
}

/** A new subscription's new event arrives: the outbox has not stalled. */
async function stillDelivers(api: Api, token: string, createId: bigint): Promise<void> {
  await withReceiver(async (receiver) => {
    await subscribe(api, token, receiver.url())
    assert.equal((await api.createPlant(token, { id: createId, name: 'after the race' })).status, 200)
    await receiver.until((received) => received.some((request) => request.body.includes(`"id":${createId}`)), 5_000)
  })
}

for (const kind of STORE_KINDS) {
  describe(`the webhook outbox under races on ${kind}`, () => {
    let fx: InProcessFixture
    let nextId = 1_000n
    before(async () => {
      fx = await buildFixture(kind, ENV)
    })
    after(async () => {
      await fx.close()
    })

    test("when a subscription is deleted as its last events are answered, a new subscription's event is sent, and logged delivered only once answered", async () => {
      const token = await fx.token('reused', ...MANAGE)
      for (let round = 0; round < 3; round++) {
        const first = await Receiver.start()
        const second = await Receiver.start()
        try {
          first.answer = () => ({ status: 204 })
          second.answer = () => ({ status: 204 })
          const gone = await subscribe(fx.api, token, first.url())
          for (let i = 0; i < 5; i++) assert.equal((await fx.api.createPlant(token, { id: nextId++, name: 'early' })).status, 200)
          await first.until((received) => received.length >= 5)
          assert.equal((await fx.api.request('DELETE', `/webhooks/${gone.id}`, { token })).status, 204)
          const kept = await subscribe(fx.api, token, second.url())
          const id = nextId++
          assert.equal((await fx.api.createPlant(token, { id, name: 'late' })).status, 200)
          await second.until((received) => received.some((request) => request.body.includes(`"id":${id}`)), 5_000)
          await pause(200)
          const delivered = (await deliveries(fx.api, token, kept.id)).filter((event) => event.state === 'delivered')
          const answered = new Set(second.received.map(webhookId))
          for (const event of delivered) assert.ok(answered.has(event.id), `${event.id} is logged delivered but never reached its receiver`)
          assert.equal((await fx.api.request('DELETE', `/webhooks/${kept.id}`, { token })).status, 204)
        } finally {
          await Promise.all([first.close(), second.close()])
        }
      }
    })

    test('a ping or a redeliver racing the deletion of its subscription leaves no pending event behind', async () => {
      const token = await fx.token('racer', ...MANAGE)
      await withReceiver(async (receiver) => {
        for (let round = 0; round < 20; round++) {
          const { id } = await subscribe(fx.api, token, receiver.url())
          let redeliver = ''
          if (round % 2 === 1) {
            const plant = nextId++
            assert.equal((await fx.api.createPlant(token, { id: plant, name: 'raced' })).status, 200)
            await eventually('the event is delivered', async () => (await deliveries(fx.api, token, id))[0]?.state === 'delivered')
            redeliver = `/webhooks/${id}/deliveries/${(await deliveries(fx.api, token, id))[0]?.id}/redeliver`
          }
          const [raced, deleted] = await Promise.all([
            fx.api.request('POST', redeliver === '' ? `/webhooks/${id}/ping` : redeliver, { token }),
            fx.api.request('DELETE', `/webhooks/${id}`, { token }),
          ])
          assert.ok([202, 404].includes(raced.status), raced.text)
          assert.equal(deleted.status, 204)
        }
        await eventually('no event is pending', async () => (await fx.store.outbox.backlog()).pending === 0)
      })
      await stillDelivers(fx.api, token, nextId++)
    })

    test('a redeliver asked for the instant the receiver got the body is accepted, and the event is sent once more after that attempt', async () => {
      const token = await fx.token('eager', ...MANAGE)
      await withReceiver(async (receiver) => {
        const { id } = await subscribe(fx.api, token, receiver.url())
        let asked: Promise<{ status: number }> | null = null
        receiver.answer = (request, index) => {
          if (index === 0) asked = fx.api.request('POST', `/webhooks/${id}/deliveries/${webhookId(request)}/redeliver`, { token })
          return { status: 200 }
        }
        assert.equal((await fx.api.createPlant(token, { id: nextId++, name: 'asked for again' })).status, 200)
        await receiver.until((received) => received.length >= 1)
        assert.equal((await (asked as unknown as Promise<{ status: number }>)).status, 202)
        const [one, two] = await receiver.until((received) => received.length >= 2)
        assert.equal(webhookId(two!), webhookId(one!), 'the same event, with the same webhook-id')
        await pause(300)
        assert.equal(receiver.received.length, 2, 'sent once more, not more')
        await eventually('the event is delivered', async () => {
          const [event] = await deliveries(fx.api, token, id)
          return event?.state === 'delivered'
        })
      })
    })

    test('201, GET and the list show one createdAt for a subscription, to the millisecond', async () => {
      const token = await fx.token('timely', ...MANAGE)
      for (let i = 0; i < 10; i++) {
        const made = await subscribe(fx.api, token, `http://127.0.0.1:9/timely-${i}`)
        const got = await fx.api.request<Subscribed>('GET', `/webhooks/${made.id}`, { token })
        const listed = (await fx.api.request<Subscribed[]>('GET', '/webhooks', { token })).body.find((one) => one.id === made.id)
        assert.equal(got.body.createdAt, made.createdAt)
        assert.equal(listed?.createdAt, made.createdAt)
      }
    })

    test('forty concurrent subscriptions of one subject make exactly 25, the limit', async () => {
      const token = await fx.token('greedy', ...MANAGE)
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          fx.api.request('POST', '/webhooks', { token, json: { url: `http://127.0.0.1:9/greedy-${i}` } }),
        ),
      )
      assert.equal(answers.filter((answer) => answer.status === 201).length, 25)
      assert.equal(answers.filter((answer) => answer.status === 400).length, 15)
      assert.equal((await fx.api.request<unknown[]>('GET', '/webhooks', { token })).body.length, 25)
    })
  })

  describe(`a redeliver of an event waiting for its retry on ${kind}`, () => {
    test('is accepted and sends the event now, not after the retry delay', async () => {
      const fx = await buildFixture(kind, { ...ENV, WEBHOOK_RETRY_DELAYS: '60s' })
      try {
        const token = await fx.token('waiting', ...MANAGE)
        await withReceiver(async (receiver) => {
          receiver.answer = (_request, index) => ({ status: index === 0 ? 500 : 200 })
          const { id } = await subscribe(fx.api, token, receiver.url())
          assert.equal((await fx.api.createPlant(token, { id: 5n, name: 'retried later' })).status, 200)
          await eventually('the first attempt is logged', async () => (await deliveries(fx.api, token, id))[0]?.lastStatus === 500)
          const [event] = await deliveries(fx.api, token, id)
          const answer = await fx.api.request('POST', `/webhooks/${id}/deliveries/${event?.id}/redeliver`, { token })
          assert.equal(answer.status, 202, answer.text)
          await receiver.until((received) => received.length >= 2, 3_000)
          await eventually('the event is delivered', async () => (await deliveries(fx.api, token, id))[0]?.state === 'delivered')
        })
      } finally {
        await fx.close()
      }
    })
  })

  describe(`a stop during an attempt on ${kind}`, () => {
    test('is no attempt: after a restart the event is sent again with its webhook-id, and its last retry is not spent', async () => {
      const db = await freshDatabase(kind)
      const env = { DATABASE_URL: db.url, ...ENV, WEBHOOK_RETRY_DELAYS: '100ms', WEBHOOK_TIMEOUT_MS: '30000' }
      const receiver = await Receiver.start()
      let service: Service | null = await startService(env)
      try {
        receiver.answer = (_request, index) => (index === 1 ? { status: 0, hold: true } : { status: index === 0 ? 500 : 200 })
        const token = await makeToken(db.url, 'stopped', ...MANAGE)
        let api = await Api.connect(service.url)
        const { id } = await subscribe(api, token, receiver.url())
        assert.equal((await api.createPlant(token, { id: 77n, name: 'cut off' })).status, 200)
        // The second attempt is the last one; the receiver holds it open while the service stops.
        await receiver.until((received) => received.length >= 2)
        const stoppedAt = Date.now()
        assert.equal(await service.stop(), 0)
        assert.ok(Date.now() - stoppedAt < 10_000)
        service = await startService(env)
        api = await Api.connect(service.url)
        const received = await receiver.until((all) => all.length >= 3, 10_000)
        assert.equal(webhookId(received[2]!), webhookId(received[0]!))
        await eventually('the event is delivered', async () => {
          const [event] = await deliveries(api, token, id)
          return event?.state === 'delivered' && event.attempts === 2
        })
      } finally {
        await service?.stop()
        await receiver.close()
        await db.drop()
      }
    })
  })
}

describe('deleting subscriptions while another instance creates plants, on postgres', { skip: POSTGRES_UNAVAILABLE ?? false }, () => {
  test('leaves no pending event of a deleted subscription, and new events are still sent', async () => {
    const db = await freshDatabase('postgres')
    const [one, two] = await Promise.all([startService({ DATABASE_URL: db.url, ...ENV }), startService({ DATABASE_URL: db.url, ...ENV })])
    const receiver = await Receiver.start()
    try {
      const token = await makeToken(db.url, 'churn', ...MANAGE)
      const [creator, subscriber] = await Promise.all([Api.connect(one.url), Api.connect(two.url)])
      const until = Date.now() + 4_000
      let nextId = 1n
      const creates = (async () => {
        while (Date.now() < until) {
          await Promise.all(Array.from({ length: 6 }, () => creator.createPlant(token, { id: nextId++, name: 'churned' })))
        }
      })()
      const churn = (async () => {
        while (Date.now() < until) {
          const { id } = await subscribe(subscriber, token, receiver.url())
          await pause(20)
          assert.equal((await subscriber.request('DELETE', `/webhooks/${id}`, { token })).status, 204)
        }
      })()
      await Promise.all([creates, churn])
      const client = new pg.Client({ connectionString: db.url })
      await client.connect()
      try {
        const orphans = await client.query<{ count: number }>(
          "SELECT count(*)::int AS count FROM webhook_deliveries d WHERE d.state = 'pending' AND NOT EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.id = d.subscription_id)",
        )
        assert.equal(orphans.rows[0]?.count, 0, 'pending events of deleted subscriptions')
      } finally {
        await client.end()
      }
      await stillDelivers(creator, token, 1_000_000n)
    } finally {
      await receiver.close()
      await Promise.all([one.stop(), two.stop()])
      await db.drop()
    }
  })
})

/** A tmpfs of its own (root only): a disk that can really be filled. */
function smallDisk(): { path: string; remove(): void } | string {
  const folder = tempFolder()
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', folder.path], { stdio: 'ignore' })
  } catch (error) {
    folder.remove()
    return `no tmpfs can be mounted here (${(error as Error).message.split('\n')[0]})`
  }
  return {
    path: folder.path,
    remove: () => {
      execFileSync('umount', [folder.path])
      folder.remove()
    },
  }
}

/** Writes a file until the disk is full. */
function fill(path: string): void {
  const fd = openSync(path, 'w')
  const chunk = Buffer.alloc(64 * 1024)
  try {
    for (let i = 0; i < 100_000; i++) writeSync(fd, chunk)
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error
  } finally {
    closeSync(fd)
  }
}

describe('a full disk on sqlite', () => {
  const disk = smallDisk()
  const skip = typeof disk === 'string' && process.env.CI !== 'true' ? disk : false

  test('an event whose outcome cannot be written is not sent again before its lease ends', { skip }, async () => {
    if (typeof disk === 'string') assert.fail(disk)
    const filler = join(disk.path, 'filler')
    const service = await startService({
      DATABASE_URL: `sqlite:${join(disk.path, 'plantstore.db')}`,
      ...ENV,
      WEBHOOK_RETRY_DELAYS: '100ms',
    })
    const receiver = await Receiver.start()
    try {
      const token = await makeToken(`sqlite:${join(disk.path, 'plantstore.db')}`, 'full', ...MANAGE)
      const api = await Api.connect(service.url)
      await subscribe(api, token, receiver.url())
      receiver.answer = (_request, index) => {
        if (index === 0) fill(filler)
        return { status: 200 }
      }
      assert.equal((await api.createPlant(token, { id: 1n, name: 'on a full disk' })).status, 200)
      await receiver.until((received) => received.length >= 1)
      await pause(3_000)
      assert.equal(receiver.count, 1, 'attempts while the outcome could not be written')
    } finally {
      rmSync(filler, { force: true })
      await receiver.close()
      await service.stop()
      disk.remove()
    }
  })
})
