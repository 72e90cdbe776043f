import assert from 'node:assert/strict'
import { once } from 'node:events'
import { Agent, request } from 'node:http'
import { readFileSync } from 'node:fs'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createServer } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { STORE_KINDS, freshDatabase } from '../support/databases.js'
import { Database } from '../src/store/sqlite/driver.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'
import { REPO_ROOT, makeToken, runCli } from '../support/service.js'
import { Api } from './helpers/api.js'

interface LogLine {
  pid: number
  msg: string
  reqId?: string
}

const logLines = (fx: ServiceFixture): LogLine[] =>
  fx.service
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)

const listeningPids = (fx: ServiceFixture): number[] =>
  logLines(fx)
    .filter((line) => line.msg.startsWith('Server listening'))
    .map((line) => line.pid)

/** The counters' and histograms' samples of a /metrics text: they may only grow. */
function cumulativeSamples(text: string): Map<string, number> {
  const cumulative = new Set([...text.matchAll(/^# TYPE (\S+) (counter|histogram)$/gm)].map((match) => match[1] as string))
  const samples = new Map<string, number>()
  for (const [, series, name, value] of text.matchAll(/^(([a-zA-Z_:][a-zA-Z0-9_:]*?)(?:_bucket|_sum|_count)?(?:\{[^}]*\})?) (\S+)$/gm)) {
    if (cumulative.has(name as string)) samples.set(series as string, Number(value))
  }
  return samples
}

const sumOf = (samples: Map<string, number>, name: string) =>
  [...samples].filter(([series]) => series.startsWith(`${name}{`)).reduce((sum, [, value]) => sum + value, 0)

async function waitFor(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

for (const kind of STORE_KINDS) {
  describe(`WORKERS=2 on ${kind}`, () => {
    let fx: ServiceFixture
    before(async () => {
      fx = await startFixture(kind, { WORKERS: '2' })
      await waitFor('two workers listening', () => listeningPids(fx).length === 2)
    })
    after(() => fx.close())

    test('two worker processes share the port, and the first-start token is printed once', async () => {
      const workers = new Set(listeningPids(fx))
      assert.equal(workers.size, 2)
      assert.ok(!workers.has(fx.service.process.pid as number), 'the workers are not the primary')
      assert.equal(fx.service.stderr().match(/pst_/g)?.length, 1, fx.service.stderr())
    })

    test('a plant created through one worker is seen through every worker', async () => {
      assert.equal((await fx.api.createPlant(fx.adminToken, { id: 1, name: 'shared' })).status, 200)
      for (let i = 0; i < 20; i++) {
        const answer = await fx.api.request('GET', '/plants', {
          token: fx.adminToken,
          headers: { connection: 'close', 'x-request-id': `seen-${i}` },
        })
        assert.deepEqual(answer.body, [{ name: 'shared' }])
      }
      await fx.service.waitForLog((stdout) => (stdout.match(/"reqId":"seen-[0-9]+"/g) ?? []).length === 20)
      const servedBy = new Set(
        logLines(fx)
          .filter((line) => line.reqId?.startsWith('seen-'))
          .map((line) => line.pid),
      )
      assert.equal(servedBy.size, 2, 'both workers answered')
    })

    test('a page a worker has read is not served again once another worker has changed it', async () => {
      const listThroughEveryWorker = async (tag: string, expected: unknown) => {
        for (let i = 0; i < 20; i++) {
          const answer = await fx.api.request('GET', '/plants?limit=20', {
            token: fx.adminToken,
            headers: { connection: 'close', 'x-request-id': `${tag}-${i}` },
          })
          assert.deepEqual(answer.body, expected)
        }
        // Each worker writes its own lines in batches: wait for all twenty.
        await fx.service.waitForLog((stdout) => (stdout.match(new RegExp(`"reqId":"${tag}-[0-9]+"`, 'g')) ?? []).length === 20)
        const servedBy = new Set(
          logLines(fx)
            .filter((line) => line.reqId?.startsWith(`${tag}-`))
            .map((line) => line.pid),
        )
        assert.equal(servedBy.size, 2, 'both workers answered')
      }
      await listThroughEveryWorker('cached', [{ name: 'shared' }])
      assert.equal((await fx.api.request('DELETE', '/plants/1', { token: fx.adminToken })).status, 204)
      await listThroughEveryWorker('after-delete', [])
    })

    test('GET /metrics counts the requests of every worker, whichever answers', async () => {
      const count = async () => {
        const text = (await fx.api.request<string>('GET', '/metrics', { headers: { connection: 'close' } })).body
        const match = /^http_requests_total\{method="GET",route="\/healthz",status_code="200"\} ([0-9]+)$/m.exec(text)
        return Number(match?.[1] ?? 0)
      }
      const before = await count()
      for (let i = 0; i < 10; i++) await fx.api.request('GET', '/healthz', { headers: { connection: 'close' } })
      assert.equal((await count()) - before, 10)
    })

    test('a worker that dies is replaced, the service keeps answering, and no counter of /metrics goes back', async () => {
      const scrape = async () => (await fx.api.request<string>('GET', '/metrics', { headers: { connection: 'close' } })).body
      const before = cumulativeSamples(await scrape())
      const requestsBefore = sumOf(before, 'http_requests_total')
      assert.ok(requestsBefore > 0)
      const [victim] = listeningPids(fx)
      process.kill(victim as number, 'SIGKILL')
      await waitFor('a replacement worker', () => listeningPids(fx).length === 3)
      const exited = (await fx.service.waitForLog((stdout) => stdout.includes('a worker exited')))
        .split('\n')
        .find((line) => line.includes('a worker exited'))
      assert.equal(exited?.match(/"pid":/g)?.length, 1, `one pid key: ${exited}`)
      assert.deepEqual(
        [(JSON.parse(exited as string) as { pid: number }).pid, (JSON.parse(exited as string) as { workerPid: number }).workerPid],
        [fx.service.process.pid, victim],
        'pid is the primary, workerPid the worker that exited',
      )
      for (let i = 0; i < 10; i++) {
        assert.equal((await fx.api.request('GET', '/healthz', { headers: { connection: 'close' } })).status, 200)
      }
      const after = cumulativeSamples(await scrape())
      for (const [series, value] of before) {
        assert.ok((after.get(series) ?? 0) >= value, `${series} went from ${value} to ${after.get(series)}`)
      }
      assert.ok(sumOf(after, 'http_requests_total') >= requestsBefore + 10)
    })

    test('GET /metrics answers within 1 s right after a worker is killed, while its replacement starts', async () => {
      const killed = new Set<number>()
      for (const pid of listeningPids(fx)) {
        try {
          process.kill(pid, 0)
        } catch {
          killed.add(pid)
        }
      }
      const took: number[] = []
      for (let round = 0; round < 3; round++) {
        const victim = listeningPids(fx).find((pid) => !killed.has(pid)) as number
        const listening = listeningPids(fx).length
        process.kill(victim, 'SIGKILL')
        killed.add(victim)
        // Until the primary has seen the exit, Node's round-robin may hand a new connection to the
        // dead worker and keep it unanswered (docs/running.md): the scrape is sent once it has.
        await fx.service.waitForLog((stdout) => stdout.includes(`"workerPid":${victim},`))
        const started = performance.now()
        const scrape = await fx.api.request<string>('GET', '/metrics', { headers: { connection: 'close' } })
        took.push(Math.round(performance.now() - started))
        assert.equal(scrape.status, 200)
        await waitFor('a replacement worker', () => listeningPids(fx).length === listening + 1)
      }
      assert.ok(
        took.every((ms) => ms < 1_000),
        `/metrics took ${took.join(', ')} ms after each kill`,
      )
    })

    test('requests answered since the last scrape still count after both workers are killed, 1.5 s later', async () => {
      const healthz = async () => {
        const text = (await fx.api.request<string>('GET', '/metrics', { headers: { connection: 'close' } })).body
        return Number(/^http_requests_total\{method="GET",route="\/healthz",status_code="200"\} ([0-9]+)$/m.exec(text)?.[1] ?? 0)
      }
      const before = await healthz()
      for (let i = 0; i < 40; i++) await fx.api.request('GET', '/healthz', { headers: { connection: 'close' } })
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      const living = listeningPids(fx).filter((pid) => {
        try {
          process.kill(pid, 0)
          return true
        } catch {
          return false
        }
      })
      assert.equal(living.length, 2)
      // One at a time, no scrape between: with both gone at once the port (0 here) would change.
      for (const pid of living) {
        const listening = listeningPids(fx).length
        process.kill(pid, 'SIGKILL')
        await waitFor('a replacement worker', () => listeningPids(fx).length === listening + 1)
      }
      assert.equal((await healthz()) - before, 40, 'every /healthz answered before the kills is counted')
    })

    test('SIGTERM to the primary stops every worker, and the primary exits with 0', async () => {
      const workers = listeningPids(fx)
      const started = Date.now()
      assert.equal(await fx.service.stop('SIGTERM'), 0)
      assert.ok(Date.now() - started < 10_000)
      for (const pid of workers) assert.throws(() => process.kill(pid, 0), /ESRCH/, `worker ${pid} has exited`)
    })
  })
}

describe('WORKERS=2 on sqlite: the workers take turns to write', () => {
  let fx: ServiceFixture
  before(async () => {
    fx = await startFixture('sqlite', { WORKERS: '2' })
    await waitFor('two workers listening', () => listeningPids(fx).length === 2)
  })
  after(() => fx.close())

  /** A request on a connection of its own: the primary hands each new connection to the workers in turn. */
  const create = (id: number, reqId: string) =>
    fx.api.request('POST', '/plants', {
      token: fx.adminToken,
      json: { id, name: `plant ${id}` },
      headers: { connection: 'close', 'x-request-id': reqId },
    })
  const servedBy = (reqId: string) => logLines(fx).find((line) => line.reqId === reqId)?.pid

  test("two workers' concurrent creates are all committed", async () => {
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => create(1_000 + i, `many-${i}`)))
    assert.deepEqual(
      answers.map((answer) => answer.status),
      answers.map(() => 200),
    )
    const listed = await fx.api.listPlants(fx.adminToken, '?limit=1000')
    assert.equal(listed.filter((plant) => plant.name.startsWith('plant ')).length, 300)
    await fx.service.waitForLog((stdout) => (stdout.match(/"reqId":"many-[0-9]+"/g) ?? []).length === 300)
    const pids = new Set(logLines(fx).flatMap((line) => (line.reqId?.startsWith('many-') ? [line.pid] : [])))
    assert.equal(pids.size, 2, 'both workers created plants')
  })

  /** A request on a new connection (none kept alive): it answers the status, or 0 when the connection ends without an answer. */
  const onNewConnection = (method: string, path: string, reqId: string, body = '') =>
    new Promise<number>((resolve) => {
      const sent = request(fx.service.url + path, {
        method,
        agent: false,
        headers: { authorization: `Bearer ${fx.adminToken}`, 'content-type': 'application/json', 'x-request-id': reqId },
      })
      sent.on('response', (answer) => {
        answer.resume()
        answer.on('end', () => resolve(answer.statusCode ?? 0))
        answer.on('error', () => resolve(0))
      })
      sent.on('error', () => resolve(0))
      sent.end(body)
    })

  /** The workers that listen and have not exited, in the order they started. */
  const liveWorkers = () =>
    listeningPids(fx).filter((pid) => {
      try {
        return !/^[0-9]+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
      } catch {
        return false
      }
    })

  /** Which live worker the next new connection goes to, and the other: the primary alternates. */
  async function nextAndOther(tag: string): Promise<{ next: number; other: number }> {
    assert.equal(await onNewConnection('GET', '/healthz', tag), 200)
    await fx.service.waitForLog((stdout) => stdout.includes(`"reqId":"${tag}"`))
    const other = servedBy(tag) as number
    return { next: liveWorkers().find((pid) => pid !== other) as number, other }
  }

  test('a stopped worker holding the turn keeps it no longer than its lease', async () => {
    const { next: holder } = await nextAndOther('lease-which')
    const lock = new Database(fx.db.url.slice('sqlite:'.length))
    let stopped = false
    try {
      // `holder` takes the turn and waits in it for SQLite's lock, which this process holds.
      lock.exec('BEGIN IMMEDIATE')
      const inTurn = onNewConnection('POST', '/plants', 'lease-in-turn', '{"id":21,"name":"in turn"}')
      await new Promise((resolve) => setTimeout(resolve, 300))
      process.kill(holder, 'SIGSTOP')
      stopped = true
      lock.exec('ROLLBACK')
      const since = Date.now()
      assert.equal(await onNewConnection('POST', '/plants', 'lease-other', '{"id":22,"name":"other"}'), 200)
      const waited = Date.now() - since
      // Without a lease the other worker would wait LOCK_WAIT_MS (5 s) for the turn.
      assert.ok(waited < 2_500, `the other worker wrote ${waited} ms after the holder stopped`)
      process.kill(holder, 'SIGCONT')
      stopped = false
      // SQLite's lock stays the final word: the late holder writes safely once it runs again.
      assert.equal(await inTurn, 200)
    } finally {
      if (stopped) process.kill(holder, 'SIGCONT')
      lock.close()
    }
  })

  test('the wait for the turn and for the lock share one LOCK_WAIT_MS: a 503 by 5 s', async () => {
    const lock = new Database(fx.db.url.slice('sqlite:'.length))
    try {
      lock.exec('BEGIN IMMEDIATE')
      const timed = async (id: number) => {
        const since = Date.now()
        const status = await onNewConnection('POST', '/plants', `budget-${id}`, JSON.stringify({ id, name: 'budget' }))
        return { status, ms: Date.now() - since }
      }
      const first = timed(31)
      await new Promise((resolve) => setTimeout(resolve, 200))
      const answers = await Promise.all([first, timed(32), timed(33)])
      for (const answer of answers) {
        assert.equal(answer.status, 503)
        assert.ok(answer.ms < 5_600, `answered 503 after ${answer.ms} ms: ${JSON.stringify(answers)}`)
      }
    } finally {
      lock.close()
    }
  })

  /** A create on `agent`'s connection, timed: its status, or 0 when the connection ends without one. */
  const createOn = (agent: Agent, id: number, name: string) =>
    new Promise<{ status: number; ms: number }>((resolve) => {
      const since = Date.now()
      const sent = request(fx.service.url + '/plants', {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${fx.adminToken}`, 'content-type': 'application/json' },
      })
      sent.on('response', (answer) => {
        answer.resume()
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, ms: Date.now() - since }))
      })
      sent.on('error', () => resolve({ status: 0, ms: Date.now() - since }))
      sent.end(JSON.stringify({ id, name }))
    })

  test('a stopped primary costs one wait for a turn, then the workers write without turns', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    // One kept connection: with the primary stopped, no new connection reaches a worker.
    const timedCreate = (id: number) => createOn(agent, id, 'primary stopped')
    const primary = fx.service.process.pid as number
    let stopped = false
    try {
      assert.equal((await timedCreate(41)).status, 200)
      process.kill(primary, 'SIGSTOP')
      stopped = true
      const first = await timedCreate(42)
      assert.equal(first.status, 200)
      for (let id = 43; id < 46; id++) {
        const answer = await timedCreate(id)
        assert.equal(answer.status, 200)
        assert.ok(answer.ms < 1_000, `a create took ${answer.ms} ms with the primary stopped (the first ${first.ms} ms)`)
      }
      process.kill(primary, 'SIGCONT')
      stopped = false
      const stdout = await fx.service.waitForLog((text) => text.includes('write turns again'), 10_000)
      assert.equal(stdout.match(/writing without turns/g)?.length, 1, 'warned once that turns stopped')
      assert.equal(stdout.match(/write turns again/g)?.length, 1, 'warned once that turns came back')
      assert.equal((await timedCreate(46)).status, 200)
    } finally {
      if (stopped) process.kill(primary, 'SIGCONT')
      agent.destroy()
    }
  })

  test("when the turn never comes, a create still waits for SQLite's lock, held elsewhere briefly", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const timedCreate = (id: number) => createOn(agent, id, 'lock after the turn')
    const primary = fx.service.process.pid as number
    const lock = new Database(fx.db.url.slice('sqlite:'.length))
    let stopped = false
    try {
      assert.equal((await timedCreate(51)).status, 200)
      const warnedBefore = fx.service.stdout().match(/writing without turns/g)?.length ?? 0
      // The other worker (or a backup) holds the lock when the wait for the turn ends, as when
      // both workers stop waiting for a stuck primary at once: the lock's own wait must remain.
      lock.exec('BEGIN IMMEDIATE')
      process.kill(primary, 'SIGSTOP')
      stopped = true
      const created = timedCreate(52)
      await fx.service.waitForLog((text) => (text.match(/writing without turns/g)?.length ?? 0) > warnedBefore, 10_000)
      await new Promise((resolve) => setTimeout(resolve, 300))
      lock.exec('ROLLBACK')
      const answer = await created
      assert.equal(answer.status, 200, `answered ${answer.status} after ${answer.ms} ms`)
      process.kill(primary, 'SIGCONT')
      stopped = false
      await fx.service.waitForLog((text) => (text.match(/write turns again/g)?.length ?? 0) > warnedBefore, 10_000)
    } finally {
      if (stopped) process.kill(primary, 'SIGCONT')
      if (lock.inTransaction) lock.exec('ROLLBACK')
      lock.close()
      agent.destroy()
    }
  })

  test('a worker killed in its turn does not keep the other from writing', async () => {
    // The primary hands each new connection to the worker that has waited longest for one:
    // after a connection served by `other`, the next goes to `holder`, the one after to `other`.
    assert.equal(await onNewConnection('GET', '/healthz', 'which'), 200)
    await fx.service.waitForLog((stdout) => stdout.includes('"reqId":"which"'))
    const other = servedBy('which') as number
    const holder = listeningPids(fx).find((pid) => pid !== other) as number
    // Another process holds SQLite's write lock: `holder` takes the turn and waits on the lock in it.
    const lock = new Database(fx.db.url.slice('sqlite:'.length))
    try {
      lock.exec('BEGIN IMMEDIATE')
      const inTurn = onNewConnection('POST', '/plants', 'in-turn', '{"id":1,"name":"in turn"}')
      await new Promise((resolve) => setTimeout(resolve, 300))
      const waiting = onNewConnection('POST', '/plants', 'waiting', '{"id":2,"name":"waiting"}')
      await new Promise((resolve) => setTimeout(resolve, 300))
      process.kill(holder, 'SIGKILL')
      const killedAt = Date.now()
      lock.exec('ROLLBACK')
      assert.equal(await waiting, 200)
      // Without its turn given back, the other worker would wait LOCK_WAIT_MS (5 s) for it.
      const waited = Date.now() - killedAt
      assert.ok(waited < 2_500, `the other worker wrote ${waited} ms after the kill`)
      assert.equal(await inTurn, 0, "the first create was the killed worker's")
      await fx.service.waitForLog((stdout) => stdout.includes('"reqId":"waiting"'))
      assert.equal(servedBy('waiting'), other)
    } finally {
      lock.close()
    }
    assert.equal((await fx.api.request('GET', '/plants/2', { token: fx.adminToken })).status, 200)
  })

  test('a worker killed in line for the turn, granted it before the primary sees the exit: the primary lives on', async () => {
    // The last test killed a worker: its replacement listens first.
    await waitFor('two workers listening', () => liveWorkers().length === 2, 15_000)
    const { next: holder, other: inLine } = await nextAndOther('dead-in-line-which')
    const primary = fx.service.process.pid as number
    const lock = new Database(fx.db.url.slice('sqlite:'.length))
    let stopped = false
    try {
      // `holder` takes the turn and waits on the lock; `inLine` asks after it and is queued.
      lock.exec('BEGIN IMMEDIATE')
      const inTurn = onNewConnection('POST', '/plants', 'dead-in-line-holder', '{"id":61,"name":"holder"}')
      await new Promise((resolve) => setTimeout(resolve, 300))
      const queued = onNewConnection('POST', '/plants', 'dead-in-line-queued', '{"id":62,"name":"queued"}')
      await new Promise((resolve) => setTimeout(resolve, 300))
      // The primary is stopped while `inLine` dies, and resumes after the holder's lease ran out:
      // its timer grants the turn to `inLine` before it reads the exit.
      process.kill(primary, 'SIGSTOP')
      stopped = true
      process.kill(inLine, 'SIGKILL')
      await new Promise((resolve) => setTimeout(resolve, 1_200))
      process.kill(primary, 'SIGCONT')
      stopped = false
      await new Promise((resolve) => setTimeout(resolve, 500))
      assert.equal(fx.service.process.exitCode, null, `the primary is running: ${fx.service.stderr()}`)
      assert.equal(await queued, 0, "the killed worker's create is cut")
      lock.exec('ROLLBACK')
      assert.equal(await inTurn, 200)
      await fx.service.waitForLog((stdout) => stdout.includes(`"workerPid":${inLine},`))
      await waitFor('a replacement worker', () => liveWorkers().length === 2, 15_000)
      assert.doesNotThrow(() => process.kill(holder, 0), 'the holder is running')
      assert.equal(await onNewConnection('POST', '/plants', 'dead-in-line-after', '{"id":63,"name":"after"}'), 200)
    } finally {
      if (stopped) process.kill(primary, 'SIGCONT')
      if (lock.inTransaction) lock.exec('ROLLBACK')
      lock.close()
    }
  })

  test('every create acknowledged before the primary is killed is in the file', async () => {
    const acknowledged: number[] = []
    // Sixteen clients create on new connections until the port goes (the primary holds it).
    const clients = Array.from({ length: 16 }, async (_, client) => {
      for (let i = 0; i < 2_000; i++) {
        const id = 100_000 + client * 10_000 + i
        const status = await onNewConnection('POST', '/plants', `acked-${id}`, JSON.stringify({ id, name: 'acknowledged' }))
        if (status === 200) acknowledged.push(id)
        else if (status === 0) return
      }
    })
    await waitFor('creates under way', () => acknowledged.length >= 200, 30_000)
    const workers = listeningPids(fx)
    process.kill(fx.service.process.pid as number, 'SIGKILL')
    await Promise.all(clients)
    await fx.service.stop()
    // The workers leave when their channel to the primary closes, closing the database as they go:
    // the file is read, and its folder removed, once they are gone.
    const alive = (pid: number) => {
      try {
        // A zombie (state Z) has exited; only its parent's wait is missing.
        return !/^[0-9]+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
      } catch {
        return false
      }
    }
    await waitFor('the workers to exit after their primary', () => !workers.some(alive), 10_000)
    const file = new Database(fx.db.url.slice('sqlite:'.length))
    try {
      const stored = new Set(file.prepare('SELECT id FROM plants WHERE id >= 100000').pluck().all() as number[])
      assert.deepEqual(
        acknowledged.filter((id) => !stored.has(id)),
        [],
        `of ${acknowledged.length} acknowledged`,
      )
    } finally {
      file.close()
    }
  })
})

test('WORKERS=2 on a port that is taken exits non-zero, saying so, instead of hanging', async () => {
  const squatter = createServer().listen(0, '127.0.0.1')
  await once(squatter, 'listening')
  const db = await freshDatabase('sqlite')
  try {
    const port = String((squatter.address() as { port: number }).port)
    const started = Date.now()
    const result = await runCli(['serve'], { WORKERS: '2', PORT: port, HOST: '127.0.0.1', DATABASE_URL: db.url })
    assert.notEqual(result.code, 0)
    assert.ok(Date.now() - started < 20_000)
    assert.match(result.stderr, /EADDRINUSE/)
    assert.match(result.stdout, /a worker failed to start/)
  } finally {
    squatter.close()
    await db.drop()
  }
})

test('WORKERS=4 behind a lock held elsewhere: the workers queue for the turn and none calls the primary stuck', async () => {
  const fx = await startFixture('sqlite', { WORKERS: '4' })
  const lock = new Database(fx.db.url.slice('sqlite:'.length))
  try {
    await waitFor('four workers listening', () => listeningPids(fx).length === 4)
    // Each worker in turn holds the turn for its 1 s lease, waiting on the lock: the last waits 3 s
    // for a primary that answered at once.
    lock.exec('BEGIN IMMEDIATE')
    // Each on a connection of its own: the primary hands new connections to the workers in turn.
    const creates = Array.from(
      { length: 4 },
      (_, i) =>
        new Promise<{ status: number }>((resolve) => {
          const sent = request(fx.service.url + '/plants', {
            method: 'POST',
            agent: false,
            headers: { authorization: `Bearer ${fx.adminToken}`, 'content-type': 'application/json', 'x-request-id': `queued-${i}` },
          })
          sent.on('response', (answer) => {
            answer.resume()
            answer.on('end', () => resolve({ status: answer.statusCode ?? 0 }))
          })
          sent.on('error', () => resolve({ status: 0 }))
          sent.end(JSON.stringify({ id: 300 + i, name: 'queued' }))
        }),
    )
    await new Promise((resolve) => setTimeout(resolve, 3_500))
    lock.exec('ROLLBACK')
    const answers = await Promise.all(creates)
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200, 200],
    )
    await fx.service.waitForLog((stdout) => (stdout.match(/"reqId":"queued-[0-9]"/g) ?? []).length >= 4)
    const pids = new Set(logLines(fx).flatMap((line) => (line.reqId?.startsWith('queued-') ? [line.pid] : [])))
    assert.ok(pids.size >= 3, `the creates reached ${pids.size} worker(s)`)
    assert.doesNotMatch(fx.service.stdout(), /writing without turns/)
  } finally {
    if (lock.inTransaction) lock.exec('ROLLBACK')
    lock.close()
    await fx.close()
  }
})

test('under a cluster primary not its own (pm2), WORKERS=1 writes at once, asking for no turn', async () => {
  const db = await freshDatabase('sqlite')
  // What pm2's cluster mode does: its own primary forks `plantstore serve`, and never answers turns.
  const script =
    "const cluster = require('node:cluster');" +
    "cluster.setupPrimary({ exec: process.env.EXEC, args: ['serve'], execArgv: [] });" +
    "cluster.fork({ WORKERS: '1' })"
  const foreign = spawn(process.execPath, ['-e', script], {
    env: { PATH: process.env.PATH ?? '', EXEC: join(REPO_ROOT, 'bin', 'plantstore'), PORT: '0', HOST: '127.0.0.1', DATABASE_URL: db.url },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  foreign.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  foreign.stderr.resume()
  let workerPid: number | undefined
  try {
    await waitFor('the worker listening', () => /Server listening at/.test(stdout), 60_000)
    const url = /Server listening at (http:\/\/127\.0\.0\.1:[0-9]+)/.exec(stdout)?.[1] as string
    workerPid = (JSON.parse(stdout.split('\n').find((line) => line.includes('Server listening')) as string) as LogLine).pid
    // A worker makes no first-start token (its primary would): one from the CLI, as a user makes it.
    const token = await makeToken(db.url, 'under-pm2')
    const api = await Api.connect(url)
    for (let id = 1; id <= 3; id++) {
      const since = Date.now()
      assert.equal((await api.createPlant(token, { id, name: 'under pm2' })).status, 200)
      const took = Date.now() - since
      assert.ok(took < 1_000, `a create took ${took} ms under a foreign primary`)
    }
  } finally {
    foreign.kill('SIGKILL')
    if (workerPid !== undefined) {
      try {
        process.kill(workerPid, 'SIGTERM')
      } catch {
        // already gone with its primary
      }
      const pid = workerPid
      await waitFor(
        'the worker to exit',
        () => {
          try {
            process.kill(pid, 0)
            return false
          } catch {
            return true
          }
        },
        10_000,
      ).catch(() => {})
    }
    await db.drop()
  }
})
