import assert from 'node:assert/strict'
import { Agent, request } from 'node:http'
import { connect } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'
import { probe } from './helpers/health-probe.js'
import { Database } from '../src/store/sqlite/driver.js'
import { seedPlants } from '../support/databases.js'

/** Clients that each send creates one after another, with no pause, for FLOOD_MS. */
const CLIENTS = 300
const FLOOD_MS = 3_000
/** Low enough that this flood exceeds it on any machine. */
const MAX_IN_FLIGHT = 16

interface Answer {
  status: number
  retryAfter: string | undefined
  body: string
}

function create(url: string, token: string, agent: Agent, id: number): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      `${url}/plants`,
      { method: 'POST', agent, timeout: 30_000, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (res) => {
        let body = ''
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }))
        res.on('error', () => resolve({ status: 0, retryAfter: undefined, body }))
      },
    )
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', () => resolve({ status: 0, retryAfter: undefined, body: '' }))
    req.end(JSON.stringify({ id, name: `flood ${id}` }))
  })
}

describe(`a flood of ${CLIENTS} clients creating without pause, on sqlite with SHED_MAX_IN_FLIGHT=${MAX_IN_FLIGHT}`, () => {
  let fx: ServiceFixture
  let token: string

  before(async () => {
    fx = await startFixture('sqlite', { SHED_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT) })
    token = await fx.token('flood')
  })
  after(() => fx.close())

  test('gets 503 with Retry-After and an Error body for what it cannot serve, while /healthz and /readyz answer 200', async () => {
    const health = probe(fx.service.url, '/healthz')
    const ready = probe(fx.service.url, '/readyz')
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS })
    const answers: Answer[] = []
    let nextId = 1
    const until = Date.now() + FLOOD_MS
    try {
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (Date.now() < until) answers.push(await create(fx.service.url, token, agent, nextId++))
        }),
      )
    } finally {
      agent.destroy()
    }
    const [healthReport, readyReport] = [await health.stop(), await ready.stop()]
    const count = (status: number) => answers.filter((answer) => answer.status === status).length
    console.log(
      `${answers.length} creates: ${count(200)} × 200, ${count(503)} × 503, ${answers.length - count(200) - count(503)} other; ` +
        `/healthz ${healthReport.answers} answers, max ${healthReport.maxMs.toFixed(0)} ms; /readyz ${readyReport.answers}, max ${readyReport.maxMs.toFixed(0)} ms`,
    )
    assert.ok(count(200) > 0, 'some creates were served')
    assert.ok(count(503) > 0, 'some creates were refused')
    assert.equal(answers.length, count(200) + count(503), 'every create was answered 200 or 503')
    for (const refused of answers.filter((answer) => answer.status === 503)) {
      assert.equal(refused.retryAfter, '1')
      assert.deepEqual(Object.keys(JSON.parse(refused.body) as object), ['error', 'message'])
    }
    for (const report of [healthReport, readyReport]) {
      assert.deepEqual([...report.statuses.keys()], [200], 'answered 200 throughout')
      assert.ok(report.answers >= 3, `answered ${report.answers} times during the flood`)
    }
  })
})

/** Writes `bodies` as pipelined creates on one connection, then closes it after `leaveAfterMs` without reading. */
async function sendAndLeave(url: string, token: string, bodies: string[], leaveAfterMs: number): Promise<void> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1')
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write(
    bodies
      .map(
        (body) =>
          `POST /plants HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n` +
          `content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      )
      .join(''),
  )
  await new Promise((resolve) => setTimeout(resolve, leaveAfterMs))
  socket.destroy()
}

const PLACES = 2

describe(`clients that leave before their answer, on sqlite with SHED_MAX_IN_FLIGHT=${PLACES}`, () => {
  let fx: ServiceFixture
  let token: string
  let nextId = 1
  const plant = () => JSON.stringify({ id: nextId++, name: 'left' })

  before(async () => {
    fx = await startFixture('sqlite', { SHED_MAX_IN_FLIGHT: String(PLACES) })
    token = await fx.token('gone')
  })
  after(() => fx.close())

  /** Holds SQLite's lock while `during` runs, and `releaseAfterMs` longer. */
  async function withLockHeld<T>(during: () => Promise<T>, releaseAfterMs = 300): Promise<T> {
    const lock = new Database(fx.db.url.slice('sqlite:'.length))
    lock.exec('BEGIN IMMEDIATE')
    try {
      const result = during()
      await new Promise((resolve) => setTimeout(resolve, releaseAfterMs))
      lock.exec('ROLLBACK')
      return await result
    } finally {
      if (lock.inTransaction) lock.exec('ROLLBACK')
      lock.close()
    }
  }

  /** Creates sent together while the lock is held, so that each must hold a place at once. */
  const together = (n: number) =>
    withLockHeld(async () => {
      const agent = new Agent({ keepAlive: false })
      const answers = await Promise.all(Array.from({ length: n }, () => create(fx.service.url, token, agent, nextId++)))
      return answers.map((answer) => answer.status)
    })

  test('answers on a kept connection give their places back, and no more places than the bound are given', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      for (let i = 0; i < 10; i++) assert.equal((await create(fx.service.url, token, agent, nextId++)).status, 200)
    } finally {
      agent.destroy()
    }
    assert.deepEqual((await together(PLACES + 1)).sort(), [200, 200, 503])
  })

  test('a client that leaves while its create waits gives its place back once the create is done', async () => {
    await withLockHeld(() => sendAndLeave(fx.service.url, token, [plant()], 300))
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.deepEqual(await together(PLACES), [200, 200])
  })

  test('but holds it while that create still works: the bound counts work, not clients', async () => {
    const statuses = await withLockHeld(async () => {
      await sendAndLeave(fx.service.url, token, [plant()], 200)
      const agent = new Agent({ keepAlive: false })
      const answers = await Promise.all([create(fx.service.url, token, agent, nextId++), create(fx.service.url, token, agent, nextId++)])
      return answers.map((answer) => answer.status).sort()
    }, 600)
    assert.deepEqual(statuses, [200, 503])
  })

  test('pipelined creates whose connection closes before their answers give every place back', async () => {
    for (let round = 0; round < 3; round++) await sendAndLeave(fx.service.url, token, [plant(), plant()], 0)
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.deepEqual(await together(PLACES), [200, 200])
  })

  test('a client that does not read its answers holds no place while they wait to be written', async () => {
    // Lists far larger than the connection's buffers, asked for twice on one connection that is never read.
    await seedPlants(fx.db, { owner: 'gone', firstId: 1_000_000n, count: 100_000, name: (i) => `a plant with a long name, number ${i}` })
    const socket = connect(Number(new URL(fx.service.url).port), '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.pause()
    const list = `GET /plants HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n\r\n`
    socket.write(list + list)
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      assert.deepEqual(await together(PLACES), [200, 200])
    } finally {
      socket.destroy()
    }
  })
})
