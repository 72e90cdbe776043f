import assert from 'node:assert/strict'
import { once } from 'node:events'
import { type IncomingHttpHeaders, type Server, createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { POSTGRES_UNAVAILABLE, STORE_KINDS, freshDatabase, runOnDatabase } from '../support/databases.js'
import { Receiver, pause, withReceiver } from '../support/receiver.js'
import { type Service, makeToken, startService } from '../support/service.js'
import { Api } from './helpers/api.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

// A subscription changed while its events are being delivered (CONTRACT section 13): disabled
// means nothing but a ping is sent and nothing stays pending, disabling never fails, an attempt
// under way is logged as it ended, a redeliver asked during an attempt is never lost (whichever
// worker process serves it), and a redeliver keeps the count of attempts.

const ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_DELAYS: '100ms,100ms', WEBHOOK_TIMEOUT_MS: '10000' }
const MANAGE = ['--scope', 'plants:read,plants:write,webhooks:manage']

interface Delivery {
  id: string
  event: string
  state: string
  attempts: number
  lastAttemptAt: string | null
  lastStatus: number | null
  lastError: string | null
}

interface Arrival {
  headers: IncomingHttpHeaders
  body: string
}

/** A receiver on 127.0.0.1 whose answer may wait for work of its own (`answer` resolves with the status). */
class SlowReceiver {
  readonly received: Arrival[] = []
  answer: (arrival: Arrival, index: number) => Promise<number> = () => Promise.resolve(200)

  private constructor(private readonly server: Server) {}

  static async start(): Promise<SlowReceiver> {
    const server = createServer()
    const receiver = new SlowReceiver(server)
    server.on('request', (request, response) => {
      let body = ''
      request.setEncoding('utf8')
      request.on('data', (chunk: string) => (body += chunk))
      request.on('end', () => {
        const arrival = { headers: request.headers, body }
        const index = receiver.received.push(arrival) - 1
        receiver.answer(arrival, index).then(
          (status) => response.writeHead(status).end(),
          () => response.writeHead(599).end(),
        )
      })
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    return receiver
  }

  url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    this.server.close()
    await once(this.server, 'close')
  }
}

const webhookId = (arrival: { headers: IncomingHttpHeaders }) => arrival.headers['webhook-id'] as string

/** POST on a connection of its own (a worker of WORKERS other than the last one may serve it); resolves with the status. */
function postOnNewConnection(base: string, path: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(path, base), { method: 'POST', agent: false, headers: { authorization: `Bearer ${token}` } })
    request.on('response', (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    request.on('error', reject)
    request.end()
  })
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

async function subscribe(api: Api, token: string, url: string): Promise<string> {
  const answer = await api.request<{ id: string }>('POST', '/webhooks', { token, json: { url } })
  assert.equal(answer.status, 201, answer.text)
  return answer.body.id
}

async function deliveries(api: Api, token: string, subscription: string): Promise<Delivery[]> {
  const answer = await api.request<Delivery[]>('GET', `/webhooks/${subscription}/deliveries?limit=250`, { token })
  assert.equal(answer.status, 200, answer.text)
  return answer.body
}

async function setEnabled(api: Api, token: string, subscription: string, enabled: boolean) {
  return api.request('PATCH', `/webhooks/${subscription}`, { token, json: { enabled } })
}

for (const kind of STORE_KINDS) {
  describe(`a subscription changed during its deliveries on ${kind}`, () => {
    let fx: InProcessFixture
    let nextId = 9_000n
    before(async () => {
      fx = await buildFixture(kind, ENV)
    })
    after(async () => {
      await fx.close()
    })

    test('an attempt under way when the subscription is disabled is logged as it ended: a 2xx is delivered, with its status and time', async () => {
      const token = await fx.token('disabled-mid-attempt', ...MANAGE)
      const receiver = await SlowReceiver.start()
      try {
        let release: () => void = () => undefined
        const released = new Promise<void>((resolve) => (release = resolve))
        receiver.answer = async () => {
          await released
          return 200
        }
        const id = await subscribe(fx.api, token, receiver.url())
        assert.equal((await fx.api.createPlant(token, { id: nextId++, name: 'answered late' })).status, 200)
        await eventually('the attempt reaches the receiver', async () => receiver.received.length === 1)
        assert.equal((await setEnabled(fx.api, token, id, false)).status, 200)
        release()
        await eventually('the attempt is logged', async () => (await deliveries(fx.api, token, id))[0]?.lastAttemptAt != null)
        const [event] = await deliveries(fx.api, token, id)
        assert.equal(event?.state, 'delivered')
        assert.equal(event?.lastStatus, 200)
        assert.equal(event?.attempts, 1)
        assert.notEqual(event?.lastAttemptAt, null)
        assert.equal(event?.lastError, null)
        // Nothing failed, so a recover after enabling sends nothing again.
        assert.equal((await setEnabled(fx.api, token, id, true)).status, 200)
        const recovered = await fx.api.request<{ requeued: number }>('POST', `/webhooks/${id}/recover`, {
          token,
          json: { since: '2000-01-01T00:00:00Z' },
        })
        assert.deepEqual([recovered.status, recovered.body.requeued], [202, 0])
      } finally {
        await receiver.close()
      }
    })

    test('disabled and enabled again during an attempt that fails: the event stays failed and is never sent again', async () => {
      const token = await fx.token('toggled-mid-attempt', ...MANAGE)
      const receiver = await SlowReceiver.start()
      try {
        let release: () => void = () => undefined
        const released = new Promise<void>((resolve) => (release = resolve))
        receiver.answer = async (_arrival, index) => {
          if (index > 0) return 200
          await released
          return 500
        }
        const id = await subscribe(fx.api, token, receiver.url())
        assert.equal((await fx.api.createPlant(token, { id: nextId++, name: 'failed while toggled' })).status, 200)
        await eventually('the attempt reaches the receiver', async () => receiver.received.length === 1)
        assert.equal((await setEnabled(fx.api, token, id, false)).status, 200)
        assert.equal((await setEnabled(fx.api, token, id, true)).status, 200)
        release()
        await eventually('the attempt is logged', async () => (await deliveries(fx.api, token, id))[0]?.lastStatus === 500)
        // Retries here come every 100 ms: a second send would have come by now.
        await pause(1_000)
        assert.equal(receiver.received.length, 1, 'the event failed by the disable is not sent again')
        const [event] = await deliveries(fx.api, token, id)
        assert.equal(event?.state, 'failed')
        assert.equal(event?.attempts, 1)
      } finally {
        await receiver.close()
      }
    })

    test('while disabled, recover and redeliver answer 409 and send nothing; a ping is still sent', async () => {
      const token = await fx.token('disabled-asks', ...MANAGE)
      await withReceiver(async (receiver) => {
        receiver.answer = () => ({ status: 500 })
        const id = await subscribe(fx.api, token, receiver.url())
        assert.equal((await fx.api.createPlant(token, { id: nextId++, name: 'failed' })).status, 200)
        assert.equal((await fx.api.createPlant(token, { id: nextId++, name: 'failed too' })).status, 200)
        await eventually('both events failed', async () => {
          const events = await deliveries(fx.api, token, id)
          return events.length === 2 && events.every((event) => event.state === 'failed')
        })
        assert.equal((await setEnabled(fx.api, token, id, false)).status, 200)
        const sent = receiver.count
        const recover = await fx.api.request<{ error: number; message: string }>('POST', `/webhooks/${id}/recover`, {
          token,
          json: { since: '2000-01-01T00:00:00Z' },
        })
        assert.equal(recover.status, 409, recover.text)
        assert.equal(recover.body.error, 409)
        assert.match(recover.body.message, /disabled/)
        const [first] = await deliveries(fx.api, token, id)
        const redeliver = await fx.api.request<{ message: string }>('POST', `/webhooks/${id}/deliveries/${first?.id}/redeliver`, { token })
        assert.equal(redeliver.status, 409, redeliver.text)
        assert.match(redeliver.body.message, /disabled/)
        receiver.answer = () => ({ status: 200 })
        const ping = await fx.api.request<{ id: string }>('POST', `/webhooks/${id}/ping`, { token })
        assert.equal(ping.status, 202)
        const arrived = await receiver.until((all) => all.some((request) => request.headers['webhook-id'] === ping.body.id), 5_000)
        // The ping is the one request since the disable: a recovered or redelivered event would have come first (due at once).
        assert.deepEqual(
          arrived.slice(sent).map((request) => request.headers['plantstore-event']),
          ['ping'],
        )
        const events = await deliveries(fx.api, token, id)
        assert.deepEqual(
          events.filter((event) => event.event !== 'ping').map((event) => event.state),
          ['failed', 'failed'],
        )
      })
    })

    test('a redeliver keeps the count of attempts and starts a new round of retries', async () => {
      const token = await fx.token('counted', ...MANAGE)
      await withReceiver(async (receiver) => {
        const id = await subscribe(fx.api, token, receiver.url())
        assert.equal((await fx.api.createPlant(token, { id: nextId++, name: 'twice' })).status, 200)
        await eventually('the event is delivered', async () => (await deliveries(fx.api, token, id))[0]?.state === 'delivered')
        const [event] = await deliveries(fx.api, token, id)
        receiver.answer = () => ({ status: 500 })
        assert.equal((await fx.api.request('POST', `/webhooks/${id}/deliveries/${event?.id}/redeliver`, { token })).status, 202)
        // The new round: its first attempt and two retries (100ms,100ms), then given up; none erased.
        await eventually('the new round is given up', async () => {
          const [again] = await deliveries(fx.api, token, id)
          return again?.state === 'failed'
        })
        const [failed] = await deliveries(fx.api, token, id)
        assert.equal(receiver.count, 4, 'one delivered attempt and a round of three')
        assert.equal(failed?.attempts, 4)
        receiver.answer = () => ({ status: 200 })
        const recovered = await fx.api.request<{ requeued: number }>('POST', `/webhooks/${id}/recover`, {
          token,
          json: { since: '2000-01-01T00:00:00Z' },
        })
        assert.deepEqual([recovered.status, recovered.body.requeued], [202, 1])
        await eventually('the recovered event is delivered', async () => (await deliveries(fx.api, token, id))[0]?.state === 'delivered')
        assert.equal((await deliveries(fx.api, token, id))[0]?.attempts, 5)
        assert.equal(receiver.count, 5)
      })
    })
  })
}

describe('a redeliver asked during the attempt, with WORKERS=2 on sqlite', () => {
  test('every event is sent once more after that attempt, whichever worker serves the redeliver', async () => {
    const db = await freshDatabase('sqlite')
    const receiver = await SlowReceiver.start()
    let service: Service | null = null
    try {
      service = await startService({ DATABASE_URL: db.url, WORKERS: '2', ...ENV })
      const base = service.url
      const token = await makeToken(db.url, 'eager', ...MANAGE)
      const api = await Api.connect(base)
      const id = await subscribe(api, token, receiver.url())
      const asked: number[] = []
      receiver.answer = async (arrival) => {
        const seen = receiver.received.filter((other) => webhookId(other) === webhookId(arrival)).length
        if (seen === 1) asked.push(await postOnNewConnection(base, `/webhooks/${id}/deliveries/${webhookId(arrival)}/redeliver`, token))
        return 200
      }
      const plants = 16
      for (let i = 1; i <= plants; i++) assert.equal((await api.createPlant(token, { id: BigInt(i), name: `asked ${i}` })).status, 200)
      await eventually(
        'every event is sent twice and logged delivered',
        async () => {
          const events = await deliveries(api, token, id)
          return receiver.received.length >= 2 * plants && events.length === plants && events.every((event) => event.state === 'delivered')
        },
        20_000,
      ).catch(async (error: unknown) => {
        const counts = new Map<string, number>()
        for (const arrival of receiver.received) counts.set(webhookId(arrival), (counts.get(webhookId(arrival)) ?? 0) + 1)
        const once = [...counts.values()].filter((count) => count === 1).length
        throw new Error(`${once} of ${plants} events came only once (redelivers answered ${asked.join(',')})`, { cause: error })
      })
      assert.deepEqual(
        asked.filter((status) => status !== 202),
        [],
      )
      const events = await deliveries(api, token, id)
      assert.deepEqual(
        events.map((event) => event.attempts),
        Array.from({ length: plants }, () => 2),
      )
      await pause(300)
      assert.equal(receiver.received.length, 2 * plants, 'each sent once more, not more')
    } finally {
      await service?.stop()
      await receiver.close()
      await db.drop()
    }
  })
})

const POSTGRES_SKIP = { skip: POSTGRES_UNAVAILABLE ?? false }

/** Three instances of one PostgreSQL database, retrying every 50 ms, `retries` times. */
async function threeInstances(url: string, retries: number): Promise<Service[]> {
  const env = { DATABASE_URL: url, ...ENV, WEBHOOK_RETRY_DELAYS: Array.from({ length: retries }, () => '50ms').join(',') }
  const started = await Promise.allSettled([startService(env), startService(env), startService(env)])
  const services = started.flatMap((one) => (one.status === 'fulfilled' ? [one.value] : []))
  const failed = started.find((one) => one.status === 'rejected')
  if (failed !== undefined) {
    // The others are stopped: none outlives the test.
    await Promise.all(services.map((service) => service.stop()))
    throw failed.reason
  }
  return services
}

/** Creates plants from `clients` loops until `stop()` resolves; answers how many were acknowledged. */
function creating(apis: Api[], token: string, clients: number, firstId: bigint) {
  let running = true
  let next = firstId
  let made = 0
  const loops = Array.from({ length: clients }, async (_, i) => {
    const api = apis[i % apis.length] as Api
    for (let n = 0; running && n < 5_000; n++) {
      const answer = await api.createPlant(token, { id: next++, name: 'under load' })
      assert.equal(answer.status, 200, answer.text)
      made++
    }
  })
  return {
    stop: async () => {
      running = false
      await Promise.all(loops)
      return made
    },
  }
}

describe('disabling a subscription while three instances deliver and create, on postgres', POSTGRES_SKIP, () => {
  test('toggling enabled (with a recover after each) never answers 5xx', async () => {
    const db = await freshDatabase('postgres')
    const services = await threeInstances(db.url, 8)
    const receiver = await Receiver.start()
    try {
      receiver.answer = () => ({ status: 500 })
      const token = await makeToken(db.url, 'toggler', ...MANAGE)
      const apis = await Promise.all(services.map((service) => Api.connect(service.url)))
      const [first] = apis as [Api]
      const id = await subscribe(first, token, receiver.url())
      const load = creating(apis, token, 12, 1n)
      try {
        await receiver.until((received) => received.length >= 20, 10_000)
        // Bounded in count and time: on a slow machine fewer toggles, none answered 5xx.
        const until = Date.now() + 30_000
        for (let toggle = 0; toggle < 40 && Date.now() < until; toggle++) {
          const api = apis[toggle % apis.length] as Api
          const off = await setEnabled(api, token, id, false)
          assert.equal(off.status, 200, `disable ${toggle}: ${off.text}`)
          const on = await setEnabled(api, token, id, true)
          assert.equal(on.status, 200, `enable ${toggle}: ${on.text}`)
          const recovered = await api.request('POST', `/webhooks/${id}/recover`, { token, json: { since: '2000-01-01T00:00:00Z' } })
          assert.equal(recovered.status, 202, `recover ${toggle}: ${recovered.text}`)
        }
      } finally {
        await load.stop()
      }
    } finally {
      await receiver.close()
      await Promise.all(services.map((service) => service.stop()))
      await db.drop()
    }
  })

  test('after the disable answers 200, nothing stays pending for it and nothing more is sent to it', async () => {
    const db = await freshDatabase('postgres')
    // Forty retries: an event left pending for the disabled subscription keeps being sent for two seconds.
    const services = await threeInstances(db.url, 40)
    const receiver = await Receiver.start()
    try {
      receiver.answer = () => ({ status: 500 })
      const token = await makeToken(db.url, 'disabler', ...MANAGE)
      const apis = await Promise.all(services.map((service) => Api.connect(service.url)))
      const [first] = apis as [Api]
      const id = await subscribe(first, token, receiver.url())
      const load = creating(apis, token, 12, 1n)
      let made = 0
      let disabledAt = 0
      try {
        await receiver.until((received) => received.length >= 20, 10_000)
        assert.equal((await setEnabled(first, token, id, false)).status, 200)
        disabledAt = performance.now()
      } finally {
        made = await load.stop()
      }
      assert.ok(made > 0)
      const count = async (where: string) =>
        (await runOnDatabase(db, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = $1 AND ${where}`, [id])).rows[0]
          ?.n as number
      // A create that committed around the disable wrote no event for it, or had it failed with the others.
      assert.equal(await count("state = 'pending'"), 0, 'events of the disabled subscription pending after its disable answered')
      // Attempts under way at the disable end (the receiver answers at once) and are logged.
      await eventually('the attempts under way are logged', async () => (await count('leased_until IS NOT NULL')) === 0, 10_000)
      const afterDisable = new Map<string, number>()
      for (const request of receiver.received.filter((one) => one.at > disabledAt)) {
        const webhookId = request.headers['webhook-id'] as string
        afterDisable.set(webhookId, (afterDisable.get(webhookId) ?? 0) + 1)
      }
      assert.deepEqual(
        [...afterDisable].filter(([, times]) => times > 1),
        [],
        'events retried after the disable answered: only an attempt under way may still arrive, once',
      )
      const sent = receiver.count
      // Twenty retry delays: an event still handed out would arrive again and again meanwhile.
      await pause(1_000)
      assert.equal(receiver.count, sent, 'requests to the disabled subscription once its attempts under way were logged')
    } finally {
      await receiver.close()
      await Promise.all(services.map((service) => service.stop()))
      await db.drop()
    }
  })
})
