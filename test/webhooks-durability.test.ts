import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { POSTGRES_UNAVAILABLE, STORE_KINDS, freshDatabase } from '../support/databases.js'
import { type Service, startService } from '../support/service.js'
import { Receiver } from '../support/receiver.js'

const ENV = {
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  WEBHOOK_RETRY_DELAYS: Array(40).fill('250ms').join(','),
  // Long enough that no attempt times out under the load of these tests: a timed-out attempt that
  // did arrive is sent again (at least once), which would hide a double claim.
  WEBHOOK_TIMEOUT_MS: '10000',
}

const firstToken = (service: Service): string => {
  const token = /^(pst_\S+)$/m.exec(service.stderr())?.[1]
  if (token === undefined) throw new Error(`no first-start token: ${service.stderr()}`)
  return token
}

async function subscribe(service: Service, token: string, url: string): Promise<void> {
  const answer = await fetch(`${service.url}/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  })
  assert.equal(answer.status, 201, await answer.text())
}

/** Creates each id through one of `services` in turn, `concurrency` at a time; answers the ids acknowledged with 200. */
async function createAll(
  services: Service[],
  token: string,
  ids: bigint[],
  concurrency: number,
  onAcknowledged = (_count: number) => {},
): Promise<bigint[]> {
  const acknowledged: bigint[] = []
  let next = 0
  const lane = async () => {
    while (next < ids.length) {
      const index = next++
      const id = ids[index] as bigint
      const service = services[index % services.length] as Service
      try {
        const answer = await fetch(`${service.url}/plants`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: `{"id":${id},"name":"plant ${id}"}`,
        })
        await answer.text()
        if (answer.status === 200) {
          acknowledged.push(id)
          onAcknowledged(acknowledged.length)
        }
      } catch {
        // A killed instance: the create was not acknowledged, so nothing is owed for it.
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane))
  return acknowledged
}

const missingFrom = (receiver: Receiver, ids: bigint[]): bigint[] => {
  const received = new Set(receiver.ids())
  return ids.filter((id) => !received.has(id))
}

for (const kind of STORE_KINDS) {
  test(`on ${kind}, plants acknowledged just before kill -9, with the receiver down, are all delivered after a restart`, async () => {
    const db = await freshDatabase(kind)
    const probe = await Receiver.start()
    const port = probe.port
    await probe.close()
    let service = await startService({ DATABASE_URL: db.url, ...ENV })
    let receiver: Receiver | null = null
    try {
      const token = firstToken(service)
      await subscribe(service, token, `http://127.0.0.1:${port}/hook`)
      const ids = Array.from({ length: 200 }, (_, i) => 2n ** 53n + BigInt(i))
      const acknowledged = await createAll([service], token, ids, 10)
      assert.equal(acknowledged.length, ids.length)
      await service.stop('SIGKILL')

      receiver = await Receiver.start(port)
      service = await startService({ DATABASE_URL: db.url, ...ENV })
      await receiver.until(() => missingFrom(receiver as Receiver, acknowledged).length === 0, 30_000)
    } finally {
      await service.stop('SIGKILL')
      await receiver?.close()
      await db.drop()
    }
  })
}

describe('two PostgreSQL instances share the deliveries', { skip: POSTGRES_UNAVAILABLE ?? false }, () => {
  test('2,000 creates over both: every plant delivered, none sent twice; then one instance killed mid-run: still every plant', async () => {
    const db = await freshDatabase('postgres')
    const receiver = await Receiver.start()
    const a = await startService({ DATABASE_URL: db.url, ...ENV }, { keepLogs: false })
    const b = await startService({ DATABASE_URL: db.url, ...ENV }, { keepLogs: false })
    try {
      const token = firstToken(a)
      await subscribe(a, token, receiver.url())

      const first = await createAll(
        [a, b],
        token,
        Array.from({ length: 2000 }, (_, i) => BigInt(i + 1)),
        20,
      )
      assert.equal(first.length, 2000)
      await receiver.until(() => missingFrom(receiver, first).length === 0, 30_000)
      const webhookIds = receiver.received.map((request) => request.headers['webhook-id'])
      assert.equal(new Set(webhookIds).size, webhookIds.length, 'no event was sent twice')
      assert.equal(receiver.received.length, 2000)

      let killed = false
      const second = await createAll(
        [a, b],
        token,
        Array.from({ length: 1000 }, (_, i) => BigInt(10_000 + i)),
        20,
        (count) => {
          if (count === 300 && !killed) {
            killed = true
            b.process.kill('SIGKILL')
          }
        },
      )
      assert.ok(killed && second.length >= 300)
      // An event that b had claimed when it died is due again once its lease ends (timeout + 15 s).
      await receiver.until(() => missingFrom(receiver, second).length === 0, 60_000)
    } finally {
      await a.stop('SIGKILL')
      await b.stop('SIGKILL')
      await receiver.close()
      await db.drop()
    }
  })
})

for (const kind of STORE_KINDS) {
  test(`WORKERS=2 on ${kind}: every plant delivered once, and the backlog gauge is not summed over the workers`, async () => {
    const db = await freshDatabase(kind)
    const probe = await Receiver.start()
    const port = probe.port
    await probe.close()
    const service = await startService({ DATABASE_URL: db.url, WORKERS: '2', ...ENV })
    let receiver: Receiver | null = null
    try {
      const token = firstToken(service)
      await subscribe(service, token, `http://127.0.0.1:${port}/hook`)
      const ids = Array.from({ length: 60 }, (_, i) => BigInt(i + 1))
      assert.equal((await createAll([service], token, ids, 6)).length, 60)
      // The receiver is down: all 60 are pending, whichever worker answers the scrape.
      for (let scrape = 0; scrape < 4; scrape++) {
        const metrics = await (await fetch(`${service.url}/metrics`)).text()
        assert.match(metrics, /^webhook_pending_events 60$/m)
      }
      receiver = await Receiver.start(port)
      await receiver.until(() => missingFrom(receiver as Receiver, ids).length === 0, 20_000)
      await new Promise((resolve) => setTimeout(resolve, 500))
      const webhookIds = receiver.received.map((request) => request.headers['webhook-id'])
      assert.equal(new Set(webhookIds).size, 60, 'one event per plant')
      assert.equal(webhookIds.length, 60, 'each received once: on SQLite one worker delivers, on PostgreSQL claims are exclusive')
    } finally {
      await service.stop()
      await receiver?.close()
      await db.drop()
    }
  })
}
