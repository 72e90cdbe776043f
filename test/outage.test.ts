import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Api } from './helpers/api.js'
import { POSTGRES_UNAVAILABLE, type TestDatabase, adminQuery, freshDatabase } from '../support/databases.js'
import { type Service, makeToken, startService } from '../support/service.js'

const skip = POSTGRES_UNAVAILABLE === null ? false : `no PostgreSQL server (${POSTGRES_UNAVAILABLE})`
const TIMEOUT_MS = 1000

interface Outcome {
  status: number
  ms: number
  body: string
}

describe('a PostgreSQL outage under load', { skip }, () => {
  let db: TestDatabase
  let service: Service
  let api: Api
  let token: string
  let database: string

  before(async () => {
    db = await freshDatabase('postgres')
    database = new URL(db.url).pathname.slice(1)
    service = await startService({
      DATABASE_URL: db.url,
      PG_CONNECT_TIMEOUT_MS: String(TIMEOUT_MS),
      PG_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS),
    })
    api = await Api.connect(service.url)
    token = await makeToken(db.url, 'survivor')
  })
  after(async () => {
    await adminQuery(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`).catch(() => {})
    await service.stop()
    await db.drop()
  })

  test('requests during it get 503 quickly, never a 500 or a hang, and the service recovers by itself', async () => {
    const outcomes: { phase: 'before' | 'during' | 'after'; id: number; outcome: Outcome }[] = []
    let phase: 'before' | 'during' | 'after' = 'before'
    let nextId = 1
    let running = true
    const worker = async () => {
      while (running) {
        const id = nextId++
        const started = Date.now()
        const requestPhase = phase
        const response = await fetch(`${service.url}/plants`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: `{"id":${id},"name":"plant ${id}"}`,
        })
        const body = await response.text()
        api.check('POST', '/plants', {
          status: response.status,
          headers: response.headers,
          text: body,
          body: JSON.parse(body) as unknown,
        })
        outcomes.push({ phase: requestPhase, id, outcome: { status: response.status, ms: Date.now() - started, body } })
      }
    }
    const workers = Array.from({ length: 8 }, worker)
    await new Promise((resolve) => setTimeout(resolve, 500))

    // The outage: the database refuses new connections and every open one is cut.
    phase = 'during'
    await adminQuery(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`)
    await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}'`)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const readyDuring = await api.request('GET', '/readyz')

    await adminQuery(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`)
    await new Promise((resolve) => setTimeout(resolve, 300))
    phase = 'after'
    await new Promise((resolve) => setTimeout(resolve, 700))
    running = false
    await Promise.all(workers)
    const readyAfter = await api.request('GET', '/readyz')

    const during = outcomes.filter((entry) => entry.phase === 'during')
    const afterwards = outcomes.filter((entry) => entry.phase === 'after')
    const count = (entries: typeof outcomes, status: number) => entries.filter((entry) => entry.outcome.status === status).length
    const slowest = Math.max(...outcomes.map((entry) => entry.outcome.ms))
    console.log(
      `outage: ${outcomes.length} requests; during: ${count(during, 503)} × 503, ${count(during, 200)} × 200; ` +
        `after: ${count(afterwards, 200)} × 200 of ${afterwards.length}; slowest ${slowest} ms`,
    )

    assert.deepEqual(
      outcomes.filter((entry) => ![200, 503].includes(entry.outcome.status)).map((entry) => entry.outcome),
      [],
      'only 200 and 503',
    )
    assert.ok(count(during, 503) > 0, 'the outage was seen')
    for (const entry of during.filter((item) => item.outcome.status === 503)) {
      assert.doesNotMatch(entry.outcome.body, /ECONN|terminat|pg_|SQL|at .*\.js/i, 'no internals in the message')
    }
    assert.ok(slowest < 3 * TIMEOUT_MS, `no request waited past the timeouts (slowest ${slowest} ms)`)
    assert.equal(readyDuring.status, 503)
    assert.equal(readyAfter.status, 200)
    assert.ok(afterwards.length > 0 && count(afterwards, 200) === afterwards.length, 'every request after recovery succeeds')

    const stored = new Set((await api.listPlants(token)).map((plant) => plant.name))
    const lost = outcomes.filter((entry) => entry.outcome.status === 200 && !stored.has(`plant ${entry.id}`))
    assert.deepEqual(lost, [], 'nothing acknowledged is lost')
  })

  test('connections cut in the middle of transactions (keyed creates) answer 503, never crash the process, and the key then makes one plant', async () => {
    const statuses = new Map<number, number>()
    const acknowledged = new Set<number>()
    let running = true
    let nextId = 100_000
    const keyed = async (id: number) => {
      const response = await fetch(`${service.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `cut-${id}` },
        body: `{"id":${id},"name":"plant ${id}"}`,
      }).catch((error: unknown) => {
        throw new Error(
          `no answer (the service ${service.process.exitCode === null ? 'runs' : 'exited'}): ${service.stderr().slice(-2000)}`,
          { cause: error },
        )
      })
      const body = await response.text()
      api.check('POST', '/plants', { status: response.status, headers: response.headers, text: body, body: JSON.parse(body) as unknown })
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      if (response.status === 503) assert.ok(Number(response.headers.get('retry-after')) >= 1, 'a 503 says when to retry')
      return response.status
    }
    const tried: number[] = []
    const worker = async () => {
      while (running) {
        const id = nextId++
        tried.push(id)
        if ((await keyed(id)) === 200) acknowledged.add(id)
      }
    }
    const workers = Array.from({ length: 8 }, worker)
    // Every open connection of the service is cut, again and again, while transactions are open on them.
    for (let cut = 0; cut < 30; cut++) {
      await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}' AND pid <> pg_backend_pid()`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    running = false
    await Promise.all(workers)
    console.log(`cut transactions: answers ${JSON.stringify(Object.fromEntries(statuses))}`)
    assert.equal(service.process.exitCode, null, 'the service is still running')
    assert.deepEqual(
      [...statuses.keys()].filter((status) => status !== 200 && status !== 503),
      [],
      'only 200 and 503',
    )
    assert.ok((statuses.get(503) ?? 0) > 0, 'some transactions were cut')
    // Each key retried once more: the plant exists exactly once, whether or not its first try committed.
    for (const id of tried) assert.equal(await keyed(id), 200, `key cut-${id} answers 200 on retry`)
    const stored = new Set((await api.listPlants(token)).map((plant) => plant.name))
    assert.deepEqual(
      tried.filter((id) => !stored.has(`plant ${id}`)),
      [],
    )
    assert.equal((await api.request('GET', '/readyz')).status, 200)
  })
})
