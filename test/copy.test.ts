import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { POSTGRES_UNAVAILABLE, type TestDatabase, freshDatabase, runOnDatabase, seedPlants } from '../support/databases.js'
import { Receiver } from '../support/receiver.js'
import { REPO_ROOT, type Service, makeToken, runCli, startService, tempFolder } from '../support/service.js'

const skip = POSTGRES_UNAVAILABLE === null ? false : `no PostgreSQL server: ${POSTGRES_UNAVAILABLE}`

const IDS = ['-9223372036854775808', '9223372036854775807', '9007199254740993', '9007199254740991', '7']

interface Seen {
  list: string
  etag: string
}

async function send(service: Service, method: string, path: string, token: string, body?: string, headers: Record<string, string> = {}) {
  const response = await fetch(service.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body,
  })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

async function seen(service: Service, token: string): Promise<Seen> {
  const list = await send(service, 'GET', '/plants', token)
  assert.equal(list.status, 200)
  const plant = await send(service, 'GET', '/plants/7', token)
  assert.equal(plant.status, 200)
  return { list: list.text, etag: plant.headers.get('etag') ?? '' }
}

const WEBHOOK_ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_TIMEOUT_MS: '40000' }

describe('plantstore copy between the stores', { skip }, () => {
  let receiver: Receiver
  const dropped: TestDatabase[] = []
  const started: Service[] = []
  const start = async (env: Record<string, string>): Promise<Service> => {
    const service = await startService(env)
    started.push(service)
    return service
  }
  before(async () => {
    receiver = await Receiver.start()
  })
  after(async () => {
    // A failed test leaves no service behind to keep the file running.
    for (const service of started) await service.stop('SIGKILL')
    await receiver.close()
    for (const db of dropped) await db.drop()
  })

  test('SQLite to PostgreSQL and back: the same plants, ETags, tokens, keys, and pending events delivered with their webhook-ids', async () => {
    const sqlite = await freshDatabase('sqlite')
    const postgres = await freshDatabase('postgres')
    const back = await freshDatabase('sqlite')
    dropped.push(sqlite, postgres, back)
    // The receiver takes the first attempts and never answers: they are cut at the stop, so the events stay pending.
    receiver.answer = () => ({ status: 200, hold: true })
    let service = await start({ DATABASE_URL: sqlite.url, ...WEBHOOK_ENV })
    const admin = /^(pst_\S+)$/m.exec(service.stderr())?.[1] as string
    const alice = await makeToken(sqlite.url, 'alice')
    const bob = await makeToken(sqlite.url, 'bob')
    const subscription = await send(service, 'POST', '/webhooks', admin, JSON.stringify({ url: receiver.url() }))
    assert.equal(subscription.status, 201)
    const doomed = await send(service, 'POST', '/plants', alice, '{"id":42,"name":"Gone before the copy"}')
    const doomedTag = doomed.headers.get('etag')
    assert.equal((await send(service, 'DELETE', '/plants/42', alice)).status, 204)
    for (const [i, id] of IDS.entries()) {
      const tag = i === 0 ? '' : i === 1 ? undefined : `tag ${i}`
      const body = `{"id":${id},"name":"Ficus 🌿 ${i}"${tag === undefined ? '' : `,"tag":${JSON.stringify(tag)}`}}`
      const created = await send(service, 'POST', '/plants', alice, body, i === 4 ? { 'idempotency-key': 'copy-key' } : {})
      assert.equal(created.status, 200, created.text)
    }
    const patched = await send(service, 'PATCH', '/plants/7', alice, '{"name":"Ficus renamed"}')
    assert.equal(patched.status, 200)
    const revoked = await runCli(['token', 'revoke', '3'], { DATABASE_URL: sqlite.url })
    assert.equal(revoked.code, 0, revoked.stderr)
    assert.equal((await send(service, 'GET', '/plants', bob)).status, 401)
    await receiver.until((got) => got.length >= IDS.length + 1, 20_000)
    const webhookIds = new Set(receiver.received.map((request) => request.headers['webhook-id']))
    assert.equal(webhookIds.size, IDS.length + 1)
    const before = await seen(service, alice)
    assert.equal(await service.stop(), 0)

    const there = await runCli(['copy', '--from', sqlite.url, '--to', postgres.url], {})
    assert.equal(there.code, 0, there.stderr)
    assert.match(there.stdout, /^copy: plants 5 \([0-9a-f]{16}\), tokens 3 .*agree.*\n$/)
    // The source's secrets are sealed with the key beside it: the PostgreSQL instances are given it, as the copy says.
    const keyFile = `${sqlite.url.slice('sqlite:'.length)}.webhook-secret-key`
    assert.ok(there.stderr.includes(`${keyFile}: start the PostgreSQL instances with WEBHOOK_SECRET_KEY`), there.stderr)
    const secretKey = readFileSync(keyFile, 'utf8').trim()

    receiver.received.length = 0
    receiver.answer = () => ({ status: 200 })
    service = await start({ DATABASE_URL: postgres.url, WEBHOOK_SECRET_KEY: secretKey, ...WEBHOOK_ENV })
    try {
      assert.doesNotMatch(service.stderr(), /pst_/, 'no first-start token: the copied tokens are there')
      assert.deepEqual(await seen(service, alice), before)
      assert.equal((await send(service, 'GET', '/plants/7', alice, undefined, { 'if-none-match': before.etag })).status, 304)
      assert.equal((await send(service, 'GET', '/plants', bob)).status, 401, 'a revoked token stays revoked')
      const replay = await send(service, 'POST', '/plants', alice, '{"id":7,"name":"Ficus 🌿 4","tag":"tag 4"}', {
        'idempotency-key': 'copy-key',
      })
      assert.equal(replay.headers.get('idempotent-replayed'), 'true')
      const delivered = (got: { headers: Record<string, unknown> }[]) => new Set(got.map((request) => request.headers['webhook-id']))
      await receiver.until((got) => [...webhookIds].every((id) => delivered(got).has(id)), 30_000)
      for (const request of receiver.received) assert.ok(webhookIds.has(request.headers['webhook-id']), 'the same webhook-ids')
      const recreated = await send(service, 'POST', '/plants', alice, '{"id":42,"name":"Back after the copy"}')
      assert.equal(recreated.status, 200)
      assert.notEqual(recreated.headers.get('etag'), doomedTag, 'the target never gives a tag the source gave')
      const changed = await send(service, 'PATCH', '/plants/7', alice, '{"tag":"moved"}', { 'if-match': before.etag })
      assert.equal(changed.status, 200, 'a tag read before the copy still matches')
      before.etag = changed.headers.get('etag') ?? ''
    } finally {
      assert.equal(await service.stop(), 0)
    }

    const home = await runCli(['copy', '--from', postgres.url, '--to', back.url], { WEBHOOK_SECRET_KEY: secretKey })
    assert.equal(home.code, 0, home.stderr)
    const backKeyFile = `${back.url.slice('sqlite:'.length)}.webhook-secret-key`
    assert.equal(readFileSync(backKeyFile, 'utf8').trim(), secretKey, 'the key is written beside the SQLite target')
    assert.equal(statSync(backKeyFile).mode & 0o777, 0o600)
    service = await start({ DATABASE_URL: back.url })
    try {
      const after = await seen(service, alice)
      assert.equal(after.etag, before.etag)
      assert.match(after.list, /"name":"Ficus renamed","tag":"moved"/)
      assert.equal(after.list.split('"name"').length - 1, IDS.length + 1)
      for (const id of IDS) assert.equal((await send(service, 'GET', `/plants/${id}`, alice)).status, 200, `plant ${id}`)
      assert.equal((await send(service, 'GET', '/plants', bob)).status, 401)
    } finally {
      await service.stop()
    }
  })

  test('bad arguments are refused with the usage before anything is opened or made', async () => {
    const folder = tempFolder()
    try {
      const target = join(folder.path, 'new', 'p.db')
      for (const args of [
        ['copy'],
        ['copy', '--from', `sqlite:${join(folder.path, 'a.db')}`],
        ['copy', '--from', 'mysql://x/y', '--to', `sqlite:${target}`],
        ['copy', '--from', `sqlite:${target}`, '--to', `sqlite:${target}`],
        ['copy', '--from', 'sqlite:a.db', '--to', `sqlite:${target}`, 'extra'],
        ['copy', '--from', 'sqlite:a.db', '--to', 'postgres://u:secret@[::1/x'],
      ]) {
        const result = await runCli(args, {})
        assert.equal(result.code, 2, args.join(' '))
        assert.match(result.stderr, /usage: plantstore/)
        assert.equal(existsSync(join(folder.path, 'new')), false, 'nothing made')
      }
      const missing = await runCli(['copy', '--from', `sqlite:${join(folder.path, 'none.db')}`, '--to', `sqlite:${target}`], {})
      assert.notEqual(missing.code, 0)
      assert.equal(missing.stderr.trim().split('\n').length, 1)
      assert.equal(existsSync(join(folder.path, 'new')), false)
    } finally {
      folder.remove()
    }
  })

  test('a target that holds a plant is refused (exit 2, nothing written); a source in use by a service is refused', async () => {
    const source = await freshDatabase('sqlite')
    const target = await freshDatabase('postgres')
    dropped.push(source, target)
    await makeToken(source.url, 'alice')
    await runCli(['migrate'], { DATABASE_URL: target.url })
    await runOnDatabase(target, "INSERT INTO plants (id, owner, name) VALUES (1, 'carol', 'Kept')")
    const refused = await runCli(['copy', '--from', source.url, '--to', target.url], {})
    assert.equal(refused.code, 2)
    assert.match(refused.stderr, /already holds plants/)
    assert.equal((await runOnDatabase(target, 'SELECT count(*)::int AS n FROM tokens')).rows[0].n, 0)
    const service = await start({ DATABASE_URL: source.url })
    try {
      const empty = await freshDatabase('postgres')
      dropped.push(empty)
      const busy = await runCli(['copy', '--from', source.url, '--to', empty.url], {})
      assert.equal(busy.code, 1)
      assert.match(busy.stderr, /has .* open: stop it/)
    } finally {
      await service.stop()
    }
  })

  test('SQLite to SQLite copies too', async () => {
    const source = await freshDatabase('sqlite')
    const target = await freshDatabase('sqlite')
    dropped.push(source, target)
    await makeToken(source.url, 'alice')
    await seedPlants(source, { owner: 'alice', firstId: 1n, count: 3, name: (i) => `plant ${i}` })
    const result = await runCli(['copy', '--from', source.url, '--to', target.url], {})
    assert.equal(result.code, 0, result.stderr)
    assert.match(result.stdout, /plants 3 .*tokens 1 /)
  })

  test('a copy into a database another copy is filling waits for it, then is refused (exit 2)', async () => {
    const source = await freshDatabase('sqlite')
    const target = await freshDatabase('postgres')
    dropped.push(source, target)
    await makeToken(source.url, 'alice')
    await runCli(['migrate'], { DATABASE_URL: target.url })
    const other = new pg.Client({ connectionString: target.url })
    await other.connect()
    try {
      await other.query('BEGIN')
      await other.query('LOCK TABLE plants, tokens, webhook_subscriptions IN SHARE ROW EXCLUSIVE MODE')
      await other.query("INSERT INTO plants (id, owner, name) VALUES (1, 'carol', 'From the other copy')")
      const copy = runCli(['copy', '--from', source.url, '--to', target.url], {})
      const deadline = Date.now() + 20_000
      for (;;) {
        const waiting = await runOnDatabase(
          target,
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        if (waiting.rows[0].n > 0 || Date.now() > deadline) break
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      await other.query('COMMIT')
      const refused = await copy
      assert.equal(refused.code, 2, refused.stderr)
      assert.match(refused.stderr, /already holds plants/)
      assert.equal((await runOnDatabase(target, 'SELECT count(*)::int AS n FROM tokens')).rows[0].n, 0)
    } finally {
      await other.end()
    }
  })

  test('a target migrated by a newer version (exit 2) and a source column the target lacks (exit 1) are refused', async () => {
    const source = await freshDatabase('sqlite')
    const newer = await freshDatabase('postgres')
    const target = await freshDatabase('postgres')
    dropped.push(source, newer, target)
    await makeToken(source.url, 'alice')
    await runCli(['migrate'], { DATABASE_URL: newer.url })
    await runOnDatabase(newer, "INSERT INTO schema_migrations (version, name) VALUES (999, '999_future.sql')")
    const refused = await runCli(['copy', '--from', source.url, '--to', newer.url], {})
    assert.equal(refused.code, 2, refused.stderr)
    assert.match(refused.stderr, /newer Plant Store \(migration 999\)/)
    const { Database } = await import('../src/store/sqlite/driver.js')
    const sqlite = new Database(source.url.slice('sqlite:'.length))
    sqlite.exec('ALTER TABLE plants ADD COLUMN notes TEXT')
    sqlite.close()
    const lacking = await runCli(['copy', '--from', source.url, '--to', target.url], {})
    assert.equal(lacking.code, 1, lacking.stderr)
    assert.match(lacking.stderr, /no place for plants\.notes/)
    assert.equal((await runOnDatabase(target, 'SELECT count(*)::int AS n FROM tokens')).rows[0].n, 0)
  })

  test('a copy killed midway leaves nothing in the target, and the next run completes it', async () => {
    const source = await freshDatabase('sqlite')
    const target = await freshDatabase('postgres')
    dropped.push(source, target)
    await runCli(['migrate'], { DATABASE_URL: source.url })
    await seedPlants(source, { owner: 'alice', firstId: 1n, count: 200_000, name: (i) => `plant ${i}` })
    const copy = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'plantstore'), 'copy', '--from', source.url, '--to', target.url], {
      stdio: 'ignore',
    })
    const deadline = Date.now() + 60_000
    let inserting = false
    while (!inserting && Date.now() < deadline && copy.exitCode === null) {
      const activity = await runOnDatabase(
        target,
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'INSERT INTO "plants"%'`,
      )
      inserting = activity.rows[0].n > 0
      if (!inserting) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    assert.ok(inserting, 'the copy reached the plants')
    copy.kill('SIGKILL')
    await new Promise((resolve) => copy.once('exit', resolve))
    assert.equal((await runOnDatabase(target, 'SELECT count(*)::int AS n FROM plants')).rows[0].n, 0)
    const rerun = await runCli(['copy', '--from', source.url, '--to', target.url], {})
    assert.equal(rerun.code, 0, rerun.stderr)
    assert.equal((await runOnDatabase(target, 'SELECT count(*)::int AS n FROM plants')).rows[0].n, 200_000)
  })

  test('a target that stores something other than what was sent fails the check: exit 1, nothing kept', async () => {
    const source = await freshDatabase('sqlite')
    const target = await freshDatabase('postgres')
    dropped.push(source, target)
    await runCli(['migrate'], { DATABASE_URL: source.url })
    await seedPlants(source, { owner: 'alice', firstId: 1n, count: 10, name: (i) => `plant ${i}` })
    await runCli(['migrate'], { DATABASE_URL: target.url })
    await runOnDatabase(
      target,
      `CREATE FUNCTION garble() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.name := NEW.name || '?'; RETURN NEW; END $$;
       CREATE TRIGGER garble BEFORE INSERT ON plants FOR EACH ROW WHEN (NEW.id = 5) EXECUTE FUNCTION garble();`,
    )
    const result = await runCli(['copy', '--from', source.url, '--to', target.url], {})
    assert.equal(result.code, 1)
    assert.match(result.stderr, /differs from the source.*plants: 10 rows read/)
    assert.equal((await runOnDatabase(target, 'SELECT count(*)::int AS n FROM plants')).rows[0].n, 0)
  })
})
