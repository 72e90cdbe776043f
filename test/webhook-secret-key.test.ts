import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { Database } from '../src/store/sqlite/driver.js'
import { Webhook } from 'standardwebhooks'
import { Receiver } from '../support/receiver.js'
import { makeToken, startService, tempFolder } from '../support/service.js'

const ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_DELAYS: '100ms', WEBHOOK_TIMEOUT_MS: '2000' }

test('on SQLite without WEBHOOK_SECRET_KEY, secrets are sealed with a key made 0600 beside the database; a secret kept unsealed before still signs', async () => {
  const folder = tempFolder()
  const path = join(folder.path, 'plantstore.db')
  const env = { ...ENV, DATABASE_URL: `sqlite:${path}` }
  const token = await makeToken(env.DATABASE_URL, 'keeper', '--scope', 'plants:read,plants:write,webhooks:manage')
  let service = await startService(env)
  const receiver = await Receiver.start()
  try {
    const subscribe = async (hook: string) => {
      const answer = await fetch(`${service.url}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url(hook) }),
      })
      assert.equal(answer.status, 201)
      return (await answer.json()) as { id: string; secret: string }
    }
    const sealed = await subscribe('/sealed')
    const older = await subscribe('/older')
    const keyFile = `${path}.webhook-secret-key`
    assert.equal((statSync(keyFile).mode & 0o777).toString(8), '600')
    const key = readFileSync(keyFile, 'utf8')
    assert.equal(Buffer.from(key.trim(), 'base64').length, 32)

    // A secret kept as it was before this release sealed by default.
    const unsealed = `whsec_${randomBytes(24).toString('base64')}`
    const db = new Database(path)
    try {
      const kept = db.prepare('SELECT secret FROM webhook_subscriptions WHERE id = ?').pluck().get(sealed.id) as string
      assert.match(kept, /^aes-256-gcm:/)
      assert.equal(kept.includes(sealed.secret.slice('whsec_'.length)), false, 'the database holds no usable secret')
      db.prepare('UPDATE webhook_subscriptions SET secret = ? WHERE id = ?').run(unsealed, older.id)
    } finally {
      db.close()
    }

    assert.equal(await service.stop(), 0)
    service = await startService(env)
    const created = await fetch(`${service.url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 7, name: 'sealed' }),
    })
    assert.equal(created.status, 200)
    const received = await receiver.until((all) => all.length === 2)
    const at = (hook: string) => received.find((one) => one.path === hook)
    const verify = (secret: string, hook: string) =>
      new Webhook(secret).verify(at(hook)?.body ?? '', at(hook)?.headers as Record<string, string>)
    assert.doesNotThrow(() => verify(sealed.secret, '/sealed'), 'the key was read back after the restart')
    assert.doesNotThrow(() => verify(unsealed, '/older'))
    assert.equal(readFileSync(keyFile, 'utf8'), key, 'the key is made once')
  } finally {
    await service.stop()
    await receiver.close()
    folder.remove()
  }
})
