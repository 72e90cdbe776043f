import assert from 'node:assert/strict'
import { once } from 'node:events'
import { type Server, type Socket, createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { STORE_KINDS } from '../support/databases.js'
import { pause, withReceiver } from '../support/receiver.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

/** One retry 100 ms after the first attempt: each event settles within a second. */
const ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_DELAYS: '100ms', WEBHOOK_TIMEOUT_MS: '2000' }
const MANAGE = ['--scope', 'plants:read,plants:write,webhooks:manage']

interface Delivery {
  id: string
  state: string
  attempts: number
  lastStatus: number | null
  lastError: string | null
}

/**
 * A receiver on 127.0.0.1 that answers every request with exactly `answer`'s bytes and closes
 * (or, `keepOpen`, leaves the connection open after them): status lines and bodies no HTTP
 * server library would write. An answer in parts is written one part each 100 ms.
 */
async function withRawReceiver(
  answer: Buffer | Buffer[],
  work: (url: string, requests: () => number) => Promise<void>,
  { keepOpen = false } = {},
): Promise<void> {
  let requests = 0
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    let head = ''
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1')
      if (!head.includes('\r\n\r\n')) return
      const length = Number(/content-length: *([0-9]+)/i.exec(head)?.[1] ?? 0)
      if (Buffer.byteLength(head.slice(head.indexOf('\r\n\r\n') + 4), 'latin1') < length) return
      head = ''
      requests++
      const parts = Array.isArray(answer) ? answer : [answer]
      const write = (index: number) => {
        const part = parts[index] ?? Buffer.alloc(0)
        if (index < parts.length - 1) {
          socket.write(part)
          setTimeout(() => write(index + 1), 100)
        } else if (keepOpen) socket.write(part)
        else socket.end(part)
      }
      write(0)
    })
    socket.on('error', () => socket.destroy())
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  try {
    await work(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, () => requests)
  } finally {
    for (const socket of sockets) socket.destroy()
    server.close()
    await once(server, 'close')
  }
}

const raw = (statusLine: string, body: string) =>
  Buffer.from(`${statusLine}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)

/** A status line, headers and a first chunk of a body that never ends (no last chunk follows). */
const endless = (statusLine: string, firstChunk: string) =>
  Buffer.from(`${statusLine}\r\nTransfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(firstChunk).toString(16)}\r\n${firstChunk}\r\n`)

for (const kind of STORE_KINDS) {
  describe(`hostile webhook receivers on ${kind}`, () => {
    let fx: InProcessFixture
    let nextId = 560_000n
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
    const create = async (token: string) => {
      const id = nextId++
      assert.equal((await fx.api.createPlant(token, { id, name: `plant ${id}` })).status, 200)
    }
    /** The subscription's one event once it is no longer pending, within 10 s. */
    const settled = async (token: string, subscription: string): Promise<Delivery> => {
      for (let tries = 0; tries < 100; tries++) {
        const answer = await fx.api.request<Delivery[]>('GET', `/webhooks/${subscription}/deliveries`, { token })
        assert.equal(answer.status, 200, answer.text)
        const [event] = answer.body
        if (event !== undefined && event.state !== 'pending') return event
        await pause(100)
      }
      assert.fail('the event did not settle within 10 s')
    }

    test('a receiver answering 500 "bad\\0thing" is recorded without the NUL, and its neighbour\'s 200 is recorded once', async () => {
      await withRawReceiver(raw('HTTP/1.1 500 Internal Server Error', 'bad\0thing'), async (hostileUrl) => {
        await withReceiver(async (healthy) => {
          const token = await fx.token('nul-answer', ...MANAGE)
          const hostile = await subscribe(token, hostileUrl)
          const victim = await subscribe(token, healthy.url())
          await create(token)
          const [good, bad] = [await settled(token, victim), await settled(token, hostile)]
          assert.deepEqual([good.state, good.attempts, good.lastStatus, good.lastError], ['delivered', 1, 200, null])
          assert.deepEqual([bad.state, bad.attempts, bad.lastStatus, bad.lastError], ['failed', 2, 500, 'HTTP 500: badthing'])
          await pause(300)
          assert.equal(healthy.received.length, 1, 'the healthy receiver got its event once, not again every lease')
        })
      })
    })

    for (const statusLine of ['HTTP/1.1 999 Odd', 'HTTP/1.1 000 Zero']) {
      test(`an answer "${statusLine}" is recorded as an error, never as lastStatus, and the log answers 200`, async () => {
        await withRawReceiver(raw(statusLine, 'odd'), async (url, requests) => {
          const token = await fx.token(`odd-status-${statusLine.slice(9, 12)}`, ...MANAGE)
          const subscription = await subscribe(token, url)
          await create(token)
          const event = await settled(token, subscription)
          assert.equal(requests(), 2)
          assert.deepEqual([event.state, event.attempts, event.lastStatus], ['failed', 2, null])
          assert.match(event.lastError ?? '', new RegExp(`status ${statusLine.slice(9, 12)}`))
        })
      })
    }

    const endlessCases: [string, string, string | null, number][] = [
      ['HTTP/1.1 200 OK', 'delivered', null, 1],
      ['HTTP/1.1 500 Internal Server Error', 'failed', 'HTTP 500: accepted, and then', 2],
    ]
    for (const [statusLine, state, lastError, attempts] of endlessCases) {
      test(`"${statusLine}" whose body never ends is that answer, not a timeout, each attempt within the timeout`, async () => {
        await withRawReceiver(
          endless(statusLine, 'accepted, and then'),
          async (url, requests) => {
            const token = await fx.token(`endless-${statusLine.slice(9, 12)}`, ...MANAGE)
            const subscription = await subscribe(token, url)
            const startedAt = performance.now()
            await create(token)
            const event = await settled(token, subscription)
            const tookMs = performance.now() - startedAt
            assert.deepEqual(
              [event.state, event.attempts, event.lastStatus, event.lastError],
              [state, attempts, Number(statusLine.slice(9, 12)), lastError],
            )
            assert.equal(requests(), attempts)
            assert.ok(tookMs < attempts * Number(ENV.WEBHOOK_TIMEOUT_MS), `settled after ${Math.round(tookMs)} ms`)
          },
          { keepOpen: true },
        )
      })
    }

    test('lastError is cut by code points: an astral character at the cut stays whole', async () => {
      const answer = `${'a'.repeat(119)}\u{1F331}${'b'.repeat(50)}`
      await withRawReceiver(raw('HTTP/1.1 500 Internal Server Error', answer), async (url) => {
        const token = await fx.token('astral-answer', ...MANAGE)
        const subscription = await subscribe(token, url)
        await create(token)
        const event = await settled(token, subscription)
        assert.equal(event.lastError, `HTTP 500: ${'a'.repeat(119)}\u{1F331}`)
      })
    })
  })
}

const BAD_CHUNK = 'ZZZZ\r\nnope\r\n'
const chunkedHead = (statusLine: string) => `${statusLine}\r\ntransfer-encoding: chunked\r\n\r\n`

/** The status line and headers are the answer: a body that breaks after them does not change it. */
const brokenBodies: [string, Buffer | Buffer[], string, number][] = [
  [
    'a 200 whose chunked body has a bad chunk size 100 ms later',
    [Buffer.from(chunkedHead('HTTP/1.1 200 OK')), Buffer.from(BAD_CHUNK)],
    'delivered',
    1,
  ],
  [
    'a 200 followed by bytes after its content-length body',
    Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokEXTRA-GARBAGE'),
    'delivered',
    1,
  ],
  ['a 200 whose bad chunk size comes with its headers', Buffer.from(chunkedHead('HTTP/1.1 200 OK') + BAD_CHUNK), 'delivered', 1],
  ['a 500 whose chunked body has a bad chunk size', [Buffer.from(chunkedHead('HTTP/1.1 500 Oops')), Buffer.from(BAD_CHUNK)], 'failed', 2],
  [
    'a 500 followed by bytes after its content-length body',
    Buffer.from('HTTP/1.1 500 Oops\r\ncontent-length: 2\r\n\r\nnoEXTRA-GARBAGE'),
    'failed',
    2,
  ],
]

describe('webhook receivers whose body breaks after the status, on sqlite', () => {
  let fx: InProcessFixture
  let nextId = 562_000n
  before(async () => {
    fx = await buildFixture('sqlite', ENV)
  })
  after(async () => {
    await fx.close()
  })

  const deliveryOf = async (url: string, name: string): Promise<{ event: Delivery; tookMs: number }> => {
    const token = await fx.token(name, ...MANAGE)
    const subscribed = await fx.api.request<{ id: string }>('POST', '/webhooks', { token, json: { url } })
    assert.equal(subscribed.status, 201, subscribed.text)
    const id = nextId++
    const startedAt = performance.now()
    assert.equal((await fx.api.createPlant(token, { id, name: `plant ${id}` })).status, 200)
    for (let tries = 0; tries < 100; tries++) {
      const answer = await fx.api.request<Delivery[]>('GET', `/webhooks/${subscribed.body.id}/deliveries`, { token })
      assert.equal(answer.status, 200, answer.text)
      const [event] = answer.body
      if (event !== undefined && event.state !== 'pending') return { event, tookMs: performance.now() - startedAt }
      await pause(100)
    }
    assert.fail('the event did not settle within 10 s')
  }

  brokenBodies.forEach(([name, answer, state, attempts], index) => {
    test(`${name} is ${state} with its status recorded, after ${attempts} attempt(s)`, async () => {
      await withRawReceiver(
        answer,
        async (url, requests) => {
          const { event } = await deliveryOf(url, `broken-body-${index}`)
          const status = state === 'delivered' ? 200 : 500
          assert.deepEqual([event.state, event.attempts, event.lastStatus], [state, attempts, status], JSON.stringify(event))
          assert.equal(requests(), attempts)
        },
        { keepOpen: true },
      )
    })
  })

  test('a 101 Switching Protocols is failed at once with lastStatus 101, not "no answer"', async () => {
    const switching = Buffer.from('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n\r\n')
    await withRawReceiver(switching, async (url, requests) => {
      const { event, tookMs } = await deliveryOf(url, 'switching-protocols')
      assert.deepEqual([event.state, event.attempts, event.lastStatus], ['failed', 2, 101], JSON.stringify(event))
      assert.match(event.lastError ?? '', /^HTTP 101: .*switch/i)
      assert.equal(requests(), 2)
      assert.ok(tookMs < Number(ENV.WEBHOOK_TIMEOUT_MS), `settled after ${Math.round(tookMs)} ms: a slot was held`)
    })
  })
})

/** A short timeout: a silent receiver holds an attempt slot this long. */
const SILENT_TIMEOUT_MS = 1_500

for (const kind of STORE_KINDS) {
  describe(`one subject's silent receivers on ${kind}`, () => {
    let fx: InProcessFixture
    before(async () => {
      fx = await buildFixture(kind, { ...ENV, WEBHOOK_TIMEOUT_MS: String(SILENT_TIMEOUT_MS), WEBHOOK_RETRY_DELAYS: '1m' })
    })
    after(async () => {
      await fx.close()
    })

    test("25 silent subscriptions with 8 plants each hold back another subject's event by less than two timeouts", async (t) => {
      await withReceiver(async (silent) => {
        silent.answer = () => ({ status: 200, hold: true })
        await withReceiver(async (healthy) => {
          const hostile = await fx.token('hostile', ...MANAGE)
          for (let index = 0; index < 25; index++) {
            const answer = await fx.api.request('POST', '/webhooks', { token: hostile, json: { url: silent.url(`/silent/${index}`) } })
            assert.equal(answer.status, 201, answer.text)
          }
          for (let id = 561_000n; id < 561_008n; id++) {
            assert.equal((await fx.api.createPlant(hostile, { id, name: `silent ${id}` })).status, 200)
          }
          // Every attempt slot the hostile subject may hold is taken before the victim's event exists.
          await silent.until((received) => received.length >= 16, 10_000)
          const victim = await fx.token('victim', ...MANAGE)
          const subscribed = await fx.api.request('POST', '/webhooks', { token: victim, json: { url: healthy.url() } })
          assert.equal(subscribed.status, 201, subscribed.text)
          const createdAt = performance.now()
          assert.equal((await fx.api.createPlant(victim, { id: 561_100n, name: 'victim' })).status, 200)
          const [arrival] = await healthy.until((received) => received.length >= 1, 8 * SILENT_TIMEOUT_MS)
          const waitedMs = (arrival?.at ?? Infinity) - createdAt
          t.diagnostic(`the victim's event arrived ${Math.round(waitedMs)} ms after its create`)
          assert.ok(waitedMs < 2 * SILENT_TIMEOUT_MS, `the victim's event arrived ${Math.round(waitedMs)} ms after its create`)
        })
      })
    })
  })
}
