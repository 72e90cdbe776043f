import assert from 'node:assert/strict'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { Api } from './helpers/api.js'
import { STORE_KINDS, freshDatabase, seedPlants } from '../support/databases.js'
import { startFixture } from './helpers/fixture.js'
import { REPO_ROOT, runCli, startService, tempFolder } from '../support/service.js'

for (const kind of STORE_KINDS) {
  describe(`durability on ${kind}`, () => {
    test('after SIGKILL mid-load and a restart, every acknowledged create and delete holds', async () => {
      const fx = await startFixture(kind)
      const writer = await fx.token('crash')
      // Plants to delete during the load, so that acknowledged deletes are checked too.
      for (let id = 1; id <= 50; id++) await fx.api.createPlant(writer, { id: 900_000 + id, name: `old ${id}` })
      const created = new Set<string>()
      const deleted = new Set<string>()
      let nextId = 1
      let nextDelete = 1
      let killed = false
      const worker = async () => {
        while (!killed) {
          const id = nextId++
          try {
            const response = await fetch(`${fx.service.url}/plants`, {
              method: 'POST',
              headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
              body: `{"id":${id},"name":"plant ${id}"}`,
            })
            if (response.status === 200) created.add(`plant ${id}`)
            if (id % 3 === 0 && nextDelete <= 50) {
              const target = nextDelete++
              const gone = await fetch(`${fx.service.url}/plants/${900_000 + target}`, {
                method: 'DELETE',
                headers: { authorization: `Bearer ${writer}` },
              })
              if (gone.status === 204) deleted.add(`old ${target}`)
            }
          } catch {
            // The connection died with the process: that request was not acknowledged.
          }
        }
      }
      const workers = Array.from({ length: 16 }, worker)
      await new Promise((resolve) => setTimeout(resolve, 1500))
      await fx.service.stop('SIGKILL')
      killed = true
      await Promise.all(workers)
      assert.ok(created.size > 50, `only ${created.size} creates were acknowledged before the kill`)

      const restarted = await startService({ DATABASE_URL: fx.db.url })
      try {
        const api = await Api.connect(restarted.url)
        const names = new Set((await api.listPlants(writer)).map((plant) => plant.name))
        const lostCreates = [...created].filter((name) => !names.has(name))
        const lostDeletes = [...deleted].filter((name) => names.has(name))
        console.log(`crash on ${kind}: acknowledged ${created.size + deleted.size}, lost ${lostCreates.length + lostDeletes.length}`)
        assert.deepEqual(lostCreates, [])
        assert.deepEqual(lostDeletes, [])
      } finally {
        await restarted.stop()
        await fx.db.drop()
      }
    })
  })

  describe(`graceful stop on ${kind}`, () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      test(`${signal} with requests in flight: they complete, new connections are refused, exit 0`, async () => {
        const fx = await startFixture(kind)
        const reader = await fx.token('big-reader')
        await seedPlants(fx.db, { owner: 'big-reader', firstId: 1n, count: 50_000, name: (i) => `plant ${i}` })
        // Headers have arrived but the 50,000-plant body has not been read: the request is in flight.
        const inFlight = await fetch(`${fx.service.url}/plants`, { headers: { authorization: `Bearer ${reader}` } })
        assert.equal(inFlight.status, 200)
        // A create whose body is still arriving when the signal comes: in flight, so it must complete.
        const slowCreate = connect(Number(new URL(fx.service.url).port), '127.0.0.1')
        const slowAnswer = new Promise<string>((resolve) => {
          let text = ''
          slowCreate.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
          slowCreate.on('close', () => resolve(text))
        })
        const body = '{"id":100000,"name":"slow"}'
        slowCreate.write(
          `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${fx.adminToken}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
        )
        await new Promise((resolve) => setTimeout(resolve, 200))
        const exited = fx.service.stop(signal)
        const started = Date.now()
        const plants = JSON.parse(await inFlight.text()) as unknown[]
        assert.equal(plants.length, 50_000)
        await new Promise((resolve) => setTimeout(resolve, 100))
        const late = await fetch(`${fx.service.url}/healthz`).then(
          (response) => response.status,
          () => 'refused',
        )
        assert.ok(late === 'refused' || late === 503, `a request after the signal got ${late}`)
        slowCreate.write(body.slice(10))
        assert.match(await slowAnswer, /^HTTP\/1.1 200 /)
        assert.equal(await exited, 0)
        assert.ok(Date.now() - started < 10_000)

        const restarted = await startService({ DATABASE_URL: fx.db.url })
        try {
          const api = await Api.connect(restarted.url)
          assert.deepEqual(await api.listPlants(fx.adminToken, '?after=99999'), [{ name: 'slow' }])
        } finally {
          await restarted.stop()
        }
        await fx.db.drop()
      })
    }
  })
}

for (const kind of STORE_KINDS) {
  describe(`graceful stop under load on ${kind}`, () => {
    test('SIGTERM while 50 connections write: each request is answered or refused cleanly, and nothing acknowledged is lost', async () => {
      const fx = await startFixture(kind)
      const writer = await fx.token('busy')
      const acknowledged = new Set<string>()
      const outcomes = { ok: 0, refused503: 0, connectionRefused: 0, other: [] as string[] }
      let nextId = 1
      let stopping = false
      const worker = async () => {
        for (;;) {
          const id = nextId++
          let response: Response
          try {
            response = await fetch(`${fx.service.url}/plants`, {
              method: 'POST',
              headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
              body: `{"id":${id},"name":"busy ${id}"}`,
            })
          } catch {
            // Closed or refused before the request was read: not acknowledged, and the worker stops.
            outcomes.connectionRefused += 1
            return
          }
          const text = await response.text()
          if (response.status === 200) {
            outcomes.ok += 1
            acknowledged.add(`busy ${id}`)
          } else if (response.status === 503 && JSON.parse(text).error === 503) {
            outcomes.refused503 += 1
            if (stopping) return
          } else {
            outcomes.other.push(`${response.status} ${text}`)
          }
        }
      }
      const workers = Array.from({ length: 50 }, worker)
      await new Promise((resolve) => setTimeout(resolve, 700))
      stopping = true
      const exitCode = await fx.service.stop('SIGTERM')
      await Promise.all(workers)
      assert.equal(exitCode, 0)
      assert.deepEqual(outcomes.other, [], 'only 200, a 503 Error, or a refused connection')

      const restarted = await startService({ DATABASE_URL: fx.db.url })
      try {
        const api = await Api.connect(restarted.url)
        const stored = new Set((await api.listPlants(writer)).map((plant) => plant.name))
        const lost = [...acknowledged].filter((name) => !stored.has(name))
        console.log(
          `graceful stop under load on ${kind}: acknowledged ${acknowledged.size}, refused ${outcomes.refused503} with 503 ` +
            `and ${outcomes.connectionRefused} at the connection, lost ${lost.length}`,
        )
        assert.ok(acknowledged.size > 0)
        assert.deepEqual(lost, [])
      } finally {
        await restarted.stop()
        await fx.db.drop()
      }
    })
  })
}

describe('configuration', () => {
  const badSettings: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/plants' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['RATE_LIMIT', { RATE_LIMIT: '-5' }],
    ['WORKERS', { WORKERS: '0' }],
    ['WORKERS', { WORKERS: 'many' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'the proxy' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'app.example.com' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'https://app.example.com/path' }],
    ['IDEMPOTENCY_TTL', { IDEMPOTENCY_TTL: '3w' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://plants.example.com/api' }],
    ['WEBHOOK_TIMEOUT_MS', { WEBHOOK_TIMEOUT_MS: '60000' }],
    ['WEBHOOK_RETRY_DELAYS', { WEBHOOK_RETRY_DELAYS: '5s,soon' }],
    ['WEBHOOK_ALLOWED_NETWORKS', { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1' }],
    ['WEBHOOK_SECRET_KEY', { WEBHOOK_SECRET_KEY: 'c2hvcnQ=' }],
    ['WEBHOOK_RETENTION', { WEBHOOK_RETENTION: 'forever' }],
    ['DATABASE_READ_URL', { DATABASE_READ_URL: 'sqlite:./replica.db' }],
    ['WEBHOOK_SECRET_OVERLAP', { WEBHOOK_SECRET_OVERLAP: 'a day' }],
    ['WEBHOOK_DISABLE_AFTER', { WEBHOOK_DISABLE_AFTER: '-5d' }],
    ['PG_PREPARED_STATEMENTS', { DATABASE_URL: 'postgres://127.0.0.1:1/plants', PG_PREPARED_STATEMENTS: 'no' }],
    ['DATABASE_READ_URL', { DATABASE_URL: 'postgres://127.0.0.1:1/plants', DATABASE_READ_URL: 'mysql://replica/plants' }],
  ]
  for (const [variable, env] of badSettings) {
    test(`${variable}=${env[variable]} stops serve with a non-zero exit and one line naming ${variable}`, async () => {
      const result = await runCli(['serve'], env)
      assert.notEqual(result.code, 0)
      const lines = result.stderr.trim().split('\n')
      assert.equal(lines.length, 1, result.stderr)
      assert.match(lines[0] ?? '', new RegExp(variable))
      assert.equal(result.stdout, '')
    })
  }

  test('a .env file in the working directory is read, and the environment wins over it', async () => {
    const folder = tempFolder()
    try {
      writeFileSync(join(folder.path, '.env'), 'DATABASE_URL=sqlite:./from-dotenv.db\n')
      const fromFile = await runCli(['migrate'], {}, folder.path)
      assert.equal(fromFile.code, 0, fromFile.stderr)
      assert.ok(existsSync(join(folder.path, 'from-dotenv.db')), 'DATABASE_URL came from .env')
      const overridden = await runCli(['migrate'], { DATABASE_URL: 'sqlite:./from-env.db' }, folder.path)
      assert.equal(overridden.code, 0)
      assert.ok(existsSync(join(folder.path, 'from-env.db')), 'the environment won')
      writeFileSync(join(folder.path, '.env'), 'PORT=not-a-port\n')
      const bad = await runCli(['serve'], {}, folder.path)
      assert.notEqual(bad.code, 0)
      assert.match(bad.stderr, /PORT/)
    } finally {
      folder.remove()
    }
  })
})

describe('the CLI', () => {
  test('migrate creates the database and its folder, and is safe to run again', async () => {
    const folder = tempFolder()
    try {
      const url = `sqlite:${join(folder.path, 'nested', 'store.db')}`
      assert.equal((await runCli(['migrate'], { DATABASE_URL: url })).code, 0)
      assert.ok(existsSync(join(folder.path, 'nested', 'store.db')))
      assert.equal((await runCli(['migrate'], { DATABASE_URL: url })).code, 0)
    } finally {
      folder.remove()
    }
  })

  test('token create prints only the new token, for scripts', async () => {
    const db = await freshDatabase('sqlite')
    try {
      const result = await runCli(
        ['token', 'create', '--subject', 'carol', '--scope', 'plants:read', '--expires-in', '30d', '--name', 'ci'],
        { DATABASE_URL: db.url },
      )
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, /^pst_[A-Za-z0-9_-]{43}\n$/)
      const listed = await runCli(['token', 'list'], { DATABASE_URL: db.url })
      assert.match(listed.stdout, /^1\tcarol\tplants:read\t\S+\t\S+Z\tno\tci\n$/)
    } finally {
      await db.drop()
    }
  })

  for (const flag of ['--help', '-h', 'help']) {
    test(`plantstore ${flag} prints the usage on standard output and exits 0`, async () => {
      const result = await runCli([flag], {})
      assert.equal(result.code, 0, result.stderr)
      assert.match(result.stdout, /^usage: plantstore <command>/)
      assert.match(result.stdout, /token create --subject S/)
      assert.equal(result.stderr, '')
    })
  }

  test('plantstore --version prints the package version and exits 0', async () => {
    const result = await runCli(['--version'], {})
    assert.equal(result.code, 0)
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
    assert.equal(result.stdout, `${manifest.version}\n`)
  })

  test('an unknown command prints the usage on standard error and exits 2', async () => {
    const result = await runCli(['frobnicate'], {})
    assert.equal(result.code, 2)
    assert.equal(result.stdout, '')
    assert.match(result.stderr, /usage: plantstore <command>/)
  })

  test("token list --json prints one JSON array of every token's record, never a token", async () => {
    const db = await freshDatabase('sqlite')
    try {
      await runCli(['token', 'create', '--subject', 'erin', '--name', 'laptop', '--expires-in', '12h'], { DATABASE_URL: db.url })
      await runCli(['token', 'create', '--subject', 'frank', '--scope', 'plants:read'], { DATABASE_URL: db.url })
      assert.equal((await runCli(['token', 'revoke', '2'], { DATABASE_URL: db.url })).code, 0)
      const listed = await runCli(['token', 'list', '--json'], { DATABASE_URL: db.url })
      assert.equal(listed.code, 0, listed.stderr)
      assert.ok(!listed.stdout.includes('pst_'))
      const tokens = JSON.parse(listed.stdout) as Record<string, unknown>[]
      assert.equal(tokens.length, 2)
      assert.deepEqual(Object.keys(tokens[0] ?? {}).sort(), ['createdAt', 'expiresAt', 'id', 'name', 'revokedAt', 'scopes', 'subject'])
      assert.deepEqual(
        { ...tokens[0], createdAt: 'x', expiresAt: typeof tokens[0]?.expiresAt },
        {
          id: 1,
          subject: 'erin',
          scopes: ['plants:read', 'plants:write'],
          createdAt: 'x',
          expiresAt: 'string',
          revokedAt: null,
          name: 'laptop',
        },
      )
      assert.equal(tokens[1]?.subject, 'frank')
      assert.match(String(tokens[1]?.revokedAt), /^\d{4}-\d\d-\d\dT.*Z$/)
    } finally {
      await db.drop()
    }
  })

  const badCommands: string[][] = [
    [],
    ['frobnicate'],
    ['serve', 'now'],
    ['token'],
    ['token', 'create'],
    ['token', 'create', '--subject', ''],
    ['token', 'create', '--subject', 'a b'],
    ['token', 'create', '--subject', 'dave', '--scope', 'plants:fly'],
    ['token', 'create', '--subject', 'dave', '--expires-in', '3w'],
    ['token', 'create', '--subject', 'dave', '--colour', 'red'],
    ['token', 'revoke'],
    ['token', 'revoke', 'abc'],
    ['token', 'revoke', '999'],
    ['token', 'list', 'extra'],
  ]
  for (const args of badCommands) {
    test(`plantstore ${args.join(' ') || '(nothing)'} prints a usage error and exits non-zero`, async () => {
      const db = await freshDatabase('sqlite')
      try {
        const result = await runCli(args, { DATABASE_URL: db.url })
        assert.notEqual(result.code, 0)
        assert.equal(result.stdout, '')
        assert.match(result.stderr, /^plantstore: /)
      } finally {
        await db.drop()
      }
    })
  }
})
