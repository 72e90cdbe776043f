import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { connect, createServer } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { REDIS_COMMAND_TIMEOUT_MS } from '../src/auth/rate-limit.js'
import { STORE_KINDS, freshDatabase } from '../support/databases.js'
import { pause } from '../support/receiver.js'
import { freePort } from '../support/ports.js'
import { REPO_ROOT, type Service, makeToken, runCli, startService, tempFolder } from '../support/service.js'
import { buildFixture } from './helpers/in-process.js'
import { AUDIENCE, type IdentityProvider, startIdentityProvider } from './helpers/identity-provider.js'

// Each dependency failing as operators meet it: a start that cannot finish exits at once and
// says why; a Redis that is silent or refuses writes neither hangs nor silently unlimits the
// API; an identity provider that is down does not let requests escape the rate limit.

/** A port on 127.0.0.1 that nothing listens on (free when asked). */

interface Ended {
  code: number | null
  stderr: string
  afterMs: number
}

/**
 * `bin/plantstore serve` expected to fail: resolves when it exits, or after `withinMs` with code
 * null (then it is killed). The bound counts from when the CLI is loaded: loading it (what
 * `--version` does, just before) took over 10 s on this machine when busy, and is no waiting of
 * the service's.
 */
async function failedStart(env: Record<string, string>, withinMs = 10_000): Promise<Ended> {
  const loading = Date.now()
  assert.equal((await runCli(['--version'], {})).code, 0)
  const bound = withinMs + (Date.now() - loading)
  const started = Date.now()
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'plantstore'), 'serve'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  const timer = setTimeout(() => child.kill('SIGKILL'), bound)
  const code = await exited
  clearTimeout(timer)
  return { code, stderr, afterMs: Date.now() - started }
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '')

for (const kind of STORE_KINDS) {
  describe(`a start that cannot finish, on ${kind}`, () => {
    test('a second start on a taken port exits non-zero within 10 s naming the port, while the first keeps serving', async () => {
      const db = await freshDatabase(kind)
      const first = await startService({ DATABASE_URL: db.url })
      try {
        const port = new URL(first.url).port
        const second = await failedStart({ DATABASE_URL: db.url, PORT: port })
        assert.notEqual(second.code, null, `still running after 10 s: ${second.stderr}`)
        assert.notEqual(second.code, 0)
        assert.match(second.stderr, new RegExp(`EADDRINUSE.*:${port}`))
        assert.equal(lines(second.stderr).length, 1, second.stderr)
        assert.equal((await fetch(`${first.url}/healthz`)).status, 200)
      } finally {
        await first.stop()
        await db.drop()
      }
    })
  })
}

describe('a database that cannot be used at start', () => {
  test('PostgreSQL refusing connections: exit non-zero within 10 s, one line naming DATABASE_URL and the server', async () => {
    const port = await freePort()
    const ended = await failedStart({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/plantstore`, PORT: '0' })
    assert.notEqual(ended.code, null, 'still running after 10 s')
    assert.notEqual(ended.code, 0)
    assert.equal(lines(ended.stderr).length, 1, ended.stderr)
    assert.match(ended.stderr, new RegExp(`DATABASE_URL.*127\\.0\\.0\\.1:${port}.*ECONNREFUSED`))
  })

  test('a SQLite path that is a folder: exit non-zero, one line naming DATABASE_URL', async () => {
    const folder = tempFolder()
    try {
      const ended = await failedStart({ DATABASE_URL: `sqlite:${folder.path}`, PORT: '0' })
      assert.notEqual(ended.code, null, 'still running after 10 s')
      assert.notEqual(ended.code, 0)
      assert.equal(lines(ended.stderr).length, 1, ended.stderr)
      assert.match(ended.stderr, /DATABASE_URL.*cannot be opened/)
    } finally {
      folder.remove()
    }
  })

  test('a HOST that does not resolve: exit non-zero within 10 s, one line', async () => {
    const db = await freshDatabase('sqlite')
    try {
      await makeToken(db.url, 'not-the-first')
      const ended = await failedStart({ DATABASE_URL: db.url, PORT: '0', HOST: 'no-such-host.invalid' })
      assert.notEqual(ended.code, null, 'still running after 10 s')
      assert.notEqual(ended.code, 0)
      assert.equal(lines(ended.stderr).length, 1, ended.stderr)
      assert.match(ended.stderr, /no-such-host\.invalid/)
    } finally {
      await db.drop()
    }
  })
})

/** A redis-server of the test's own on a free port, with no persistence. */
async function startRedis(...args: string[]): Promise<{ port: number; process: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort()
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args], {
    stdio: 'ignore',
  })
  for (let i = 0; i < 100; i++) {
    const ready = await new Promise<boolean>((resolve) => {
      const socket = createServer().listen(port, '127.0.0.1')
      socket.on('error', () => resolve(true))
      socket.on('listening', () => socket.close(() => resolve(false)))
    })
    if (ready) break
    await pause(50)
  }
  return {
    port,
    process: child,
    async stop() {
      child.kill('SIGCONT')
      child.kill('SIGTERM')
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit')
    },
  }
}

/** GET /plants, and how long the answer took. */
async function timedList(service: Service, token: string): Promise<{ status: number; ms: number; limited: boolean }> {
  const since = Date.now()
  const answer = await fetch(`${service.url}/plants`, { headers: { authorization: `Bearer ${token}` } })
  await answer.text()
  return { status: answer.status, ms: Date.now() - since, limited: answer.headers.has('ratelimit-limit') }
}

/** On a busy machine the service's first Redis command can outlast its 1 s bound and go unlimited: ask again until one is limited. */
async function limitedWithin(service: Service, token: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms
  do {
    if ((await timedList(service, token)).limited) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  } while (Date.now() < until)
  return false
}

const warnings = (service: Service, text: string) =>
  lines(service.stdout()).filter((line) => line.includes(text) && JSON.parse(line).level === 40).length

describe('the rate limit with a Redis that fails', { skip: process.platform === 'win32' }, () => {
  test('a paused Redis leaves every request answered within the bound, unlimited, with one warning; resumed, it limits again', async () => {
    const redis = await startRedis()
    const db = await freshDatabase('sqlite')
    const service = await startService({ DATABASE_URL: db.url, RATE_LIMIT: '3', REDIS_URL: `redis://127.0.0.1:${redis.port}/0` })
    try {
      const token = await makeToken(db.url, 'paused')
      assert.equal(await limitedWithin(service, token, 10_000), true, 'limited while Redis answers')
      const unavailableBefore = warnings(service, 'Redis) unavailable')
      const againBefore = warnings(service, 'answers again')
      redis.process.kill('SIGSTOP')
      const answers = await Promise.all(Array.from({ length: 6 }, () => timedList(service, token)))
      for (const answer of answers) {
        assert.equal(answer.status, 200)
        assert.ok(answer.ms < REDIS_COMMAND_TIMEOUT_MS + 1_000, `answered after ${answer.ms} ms`)
      }
      await service.waitForLog(() => warnings(service, 'Redis) unavailable') > unavailableBefore)
      assert.equal(warnings(service, 'Redis) unavailable'), unavailableBefore + 1)
      redis.process.kill('SIGCONT')
      const fresh = await makeToken(db.url, 'resumed')
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) statuses.push((await timedList(service, fresh)).status)
      assert.deepEqual(statuses, [200, 200, 200, 429, 429])
      await service.waitForLog(() => warnings(service, 'answers again') > againBefore)
      assert.equal(warnings(service, 'answers again'), againBefore + 1)
    } finally {
      await service.stop()
      await redis.stop()
      await db.drop()
    }
  })

  test('a read-only Redis (a replica) is warned about once, and requests go on unlimited', async () => {
    const redis = await startRedis('--replicaof', '127.0.0.1', String(await freePort()))
    const db = await freshDatabase('sqlite')
    const service = await startService({ DATABASE_URL: db.url, RATE_LIMIT: '2', REDIS_URL: `redis://127.0.0.1:${redis.port}/0` })
    try {
      const token = await makeToken(db.url, 'replica')
      const statuses: number[] = []
      for (let i = 0; i < 4; i++) statuses.push((await timedList(service, token)).status)
      assert.deepEqual(statuses, [200, 200, 200, 200])
      await service.waitForLog((log) => log.includes('Redis) unavailable'))
      assert.equal(warnings(service, 'Redis) unavailable'), 1)
      assert.match(service.stdout(), /READONLY/)
    } finally {
      await service.stop()
      await redis.stop()
      await db.drop()
    }
  })
})

for (const kind of STORE_KINDS) {
  describe(`JWT requests while the provider's keys cannot be fetched, on ${kind}`, () => {
    let idp: IdentityProvider
    before(async () => {
      idp = await startIdentityProvider([{ id: 'limited-app', scope: 'plants:read' }])
    })
    after(async () => {
      await idp.stop()
    })

    test('are counted by client address before the 503: the fourth of six is a 429', async () => {
      const dead = await freePort()
      const fx = await buildFixture(kind, {
        JWT_ISSUER: idp.issuer,
        JWT_AUDIENCE: AUDIENCE,
        JWT_JWKS_URL: `http://127.0.0.1:${dead}/jwks`,
        RATE_LIMIT: '3',
      })
      try {
        const token = await idp.token('limited-app', 'plants:read')
        const answers = []
        for (let i = 0; i < 6; i++) answers.push(await fx.api.request('GET', '/plants', { token }))
        assert.deepEqual(
          answers.map((answer) => answer.status),
          [503, 503, 503, 429, 429, 429],
        )
        for (const answer of answers) assert.equal(answer.headers.get('ratelimit-limit'), '3')
      } finally {
        await fx.close()
      }
    })
  })
}

describe('a stop', () => {
  test('503s answered while the service stops are logged as no error', async () => {
    const db = await freshDatabase('sqlite')
    const service = await startService({ DATABASE_URL: db.url })
    const port = Number(new URL(service.url).port)
    const token = /^(pst_\S+)$/m.exec(service.stderr())?.[1] ?? ''
    try {
      // A create whose body is still arriving holds the stop open; a request whose headers are
      // still arriving when the stop begins is answered 503.
      const body = '{"id":1,"name":"slow"}'
      const slow = connect(port, '127.0.0.1').on('error', () => {})
      slow.write(
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 8)}`,
      )
      let late = ''
      const lateSocket = connect(port, '127.0.0.1').on('error', () => {})
      lateSocket.setEncoding('utf8').on('data', (chunk: string) => (late += chunk))
      lateSocket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n')
      await pause(300)
      const exited = service.stop('SIGTERM')
      await pause(300)
      lateSocket.write('\r\n')
      await pause(300)
      slow.end(body.slice(8))
      assert.equal(await exited, 0)
      assert.match(late, /^HTTP\/1.1 503 /)
      const errors = lines(service.stdout()).filter((line) => (JSON.parse(line) as { level: number }).level >= 50)
      assert.deepEqual(errors, [])
    } finally {
      await service.stop()
      await db.drop()
    }
  })
})
