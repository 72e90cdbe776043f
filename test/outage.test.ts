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
})
