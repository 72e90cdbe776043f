import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { Database } from '../src/store/sqlite/driver.js'
import { Webhook } from 'standardwebhooks'
import { newSecret, sealSecret } from '../src/webhooks/secrets.js'
import { Receiver } from '../support/receiver.js'
import { makeToken, runCli, startService, tempFolder } from '../support/service.js'

const ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_DELAYS: '100ms', WEBHOOK_TIMEOUT_MS: '2000' }

async function subscribe(url: string, token: string, target: string): Promise<{ id: string; secret: string }> {
  const answer = await fetch(`${url}/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: target }),
  })
  assert.equal(answer.status, 201)
  return (await answer.json()) as { id: string; secret: string }
}

async function createPlant(url: string, token: string, id: number): Promise<void> {
  const created = await fetch(`${url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id, name: `plant ${id}` }),
  })
  assert.equal(created.status, 200)
}

/** A SQLite database holding one sealed secret, its service stopped. */
async function sealedDatabase(folder: string) {
  const path = join(folder, 'plantstore.db')
  const env = { ...ENV, DATABASE_URL: `sqlite:${path}` }
  const token = await makeToken(env.DATABASE_URL, 'keeper', '--scope', 'plants:read,plants:write,webhooks:manage')
  const service = await startService(env)
  try {
    await subscribe(service.url, token, 'http://127.0.0.1:9/sealed')
  } finally {
    assert.equal(await service.stop(), 0)
  }
  return { path, env, token, keyFile: `${path}.webhook-secret-key` }
}

const refusal = async (env: Record<string, string>) =>
  startService(env).then(
    async (service) => {
      await service.stop()
      return 'it started'
    },
    (error: Error) => error.message,
  )

test('a start refuses, making no key, when the sealed secrets have no key or a key that opens none of them', async () => {
  const folder = tempFolder()
  try {
    const { env, keyFile } = await sealedDatabase(folder.path)
    renameSync(keyFile, `${keyFile}.aside`)
    const missing = await refusal(env)
    assert.match(missing, /plantstore: cannot start: 1 webhook subscription has its secrets sealed and there is no key/)
    assert.equal(existsSync(keyFile), false, 'no new key is made over sealed secrets')

    writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 })
    assert.match(await refusal(env), /plantstore: cannot start: .*opens none of the sealed secrets of 1 webhook subscription:/)
    assert.match(
      await refusal({ ...env, WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') }),
      /plantstore: cannot start: .*opens none/,
    )

    renameSync(`${keyFile}.aside`, keyFile)
    const service = await startService(env)
    assert.equal(await service.stop(), 0, 'the right key starts it again')
  } finally {
    folder.remove()
  }
})

test('a secret the key cannot open is not the receiver failing: no attempt counted, the subscription stays enabled', async () => {
  const folder = tempFolder()
  const receiver = await Receiver.start()
  try {
    const path = join(folder.path, 'plantstore.db')
    const env = { ...ENV, DATABASE_URL: `sqlite:${path}`, WEBHOOK_DISABLE_AFTER: '1ms', LOG_LEVEL: 'info' }
    const token = await makeToken(env.DATABASE_URL, 'keeper', '--scope', 'plants:read,plants:write,webhooks:manage')
    let service = await startService(env)
    const good = await subscribe(service.url, token, receiver.url('/good'))
    const other = await subscribe(service.url, token, receiver.url('/other'))
    assert.equal(await service.stop(), 0)
    const db = new Database(path)
    db.prepare('UPDATE webhook_subscriptions SET secret = ? WHERE id = ?').run(sealSecret(newSecret(), randomBytes(32)), other.id)
    db.close()

    service = await startService(env)
    try {
      await createPlant(service.url, token, 1)
      const received = await receiver.until((all) => all.length >= 1)
      assert.doesNotThrow(() => new Webhook(good.secret).verify(received[0]?.body ?? '', received[0]?.headers as Record<string, string>))
      const log = await service.waitForLog((stdout) => stdout.includes('cannot be opened'))
      assert.match(log, /"level":50[^\n]*cannot be opened/, 'an error on our side, at error level')
      await new Promise((resolve) => setTimeout(resolve, 500))
      const check = new Database(path, { readonly: true })
      try {
        const row = check
          .prepare('SELECT state, attempts, last_status FROM webhook_deliveries WHERE subscription_id = ?')
          .get(other.id) as { state: string; attempts: number }
        assert.deepEqual({ state: row.state, attempts: row.attempts }, { state: 'pending', attempts: 0 })
        const subscription = check.prepare('SELECT disabled_at, failing_since FROM webhook_subscriptions WHERE id = ?').get(other.id)
        assert.deepEqual(subscription, { disabled_at: null, failing_since: null })
      } finally {
        check.close()
      }
      assert.equal(receiver.received.filter((one) => one.path === '/other').length, 0)
    } finally {
      await service.stop()
    }
  } finally {
    await receiver.close()
    folder.remove()
  }
})

test('a restore of a database with sealed secrets and no key beside it warns', async () => {
  const folder = tempFolder()
  try {
    const { env } = await sealedDatabase(folder.path)
    const backup = join(folder.path, 'backup.db')
    assert.equal((await runCli(['backup', '--to', backup], env)).code, 0)
    const restored = await runCli(['restore', '--from', backup], { DATABASE_URL: `sqlite:${join(folder.path, 'elsewhere', 'p.db')}` })
    assert.equal(restored.code, 0)
    assert.match(restored.stderr, /sealed/)
    assert.match(restored.stderr, /webhook-secret-key/)
  } finally {
    folder.remove()
  }
})

test('with WORKERS, a worker replaced after the key file went aside seals with the one key the deliverer opens', async () => {
  const folder = tempFolder()
  const receiver = await Receiver.start()
  const path = join(folder.path, 'plantstore.db')
  const env = { ...ENV, DATABASE_URL: `sqlite:${path}`, WORKERS: '2' }
  const token = await makeToken(env.DATABASE_URL, 'keeper', '--scope', 'plants:read,plants:write,webhooks:manage')
  const service = await startService(env)
  try {
    const listening = () =>
      service
        .stdout()
        .split('\n')
        .filter((line) => line.includes('Server listening'))
        .map((line) => (JSON.parse(line) as { pid: number }).pid)
    await service.waitForLog(() => listening().length === 2, 20_000)
    const keyFile = `${path}.webhook-secret-key`
    renameSync(keyFile, `${keyFile}.aside`)
    // One at a time: the port (0, chosen by the first) stays while one worker holds it.
    const [first, second] = listening()
    process.kill(first as number, 'SIGKILL')
    await service.waitForLog(() => listening().length === 3, 30_000)
    process.kill(second as number, 'SIGKILL')
    await service.waitForLog(() => listening().length === 4, 30_000)
    assert.equal(existsSync(keyFile), false, 'no second key is made')
    const hooks = [await subscribe(service.url, token, receiver.url('/a')), await subscribe(service.url, token, receiver.url('/b'))]
    await createPlant(service.url, token, 1)
    const received = await receiver.until((all) => all.length === 2)
    for (const [index, hook] of hooks.entries()) {
      const at = received.find((one) => one.path === ['/a', '/b'][index])
      assert.doesNotThrow(() => new Webhook(hook.secret).verify(at?.body ?? '', at?.headers as Record<string, string>))
    }
  } finally {
    await service.stop()
    await receiver.close()
    folder.remove()
  }
})
