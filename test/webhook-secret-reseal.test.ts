import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, test } from 'node:test'
import { Webhook } from 'standardwebhooks'
import { loadConfig } from '../src/config/config.js'
import { openStore } from '../src/open-store.js'
import { Database } from '../src/store/sqlite/driver.js'
import { isSealed, newSecret, openSecret, sealSecret } from '../src/webhooks/secrets.js'
import { STORE_KINDS, type TestDatabase, freshDatabase, runOnDatabase } from '../support/databases.js'
import { Receiver } from '../support/receiver.js'
import { type Service, makeToken, startService } from '../support/service.js'

const ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_DELAYS: '100ms', WEBHOOK_TIMEOUT_MS: '2000' }

interface Kept {
  id: string
  secret: string
  previous_secret: string | null
}

/** Each subscription's secrets exactly as the database holds them. */
async function keptSecrets(db: TestDatabase): Promise<Kept[]> {
  const sql = 'SELECT id, secret, previous_secret FROM webhook_subscriptions ORDER BY id'
  if (db.kind === 'postgres') return (await runOnDatabase(db, sql)).rows as Kept[]
  const sqlite = new Database(db.url.slice('sqlite:'.length))
  try {
    return sqlite.prepare(sql).all() as Kept[]
  } finally {
    sqlite.close()
  }
}

/** Subscriptions as a release that kept secrets unsealed wrote them: one of them rotated (two secrets). */
async function subscribeUnsealed(db: TestDatabase, urls: string[]): Promise<Map<string, string[]>> {
  const store = await openStore(loadConfig({ DATABASE_URL: db.url }).database)
  const secrets = new Map<string, string[]>()
  try {
    for (const [index, url] of urls.entries()) {
      const id = `sub_unsealed_${index}`
      const secret = newSecret()
      await store.subscriptions.create({ id, subject: 'keeper', allPlants: false, url, events: ['newPlant'], secret }, 100)
      secrets.set(id, [secret])
    }
    const rotated = newSecret()
    await store.subscriptions.rotateSecret('sub_unsealed_0', null, rotated, new Date(Date.now() + 86_400_000))
    secrets.set('sub_unsealed_0', [rotated, ...(secrets.get('sub_unsealed_0') as string[])])
  } finally {
    await store.close()
  }
  return secrets
}

for (const kind of STORE_KINDS) {
  describe(`secrets kept unsealed by an earlier release, on ${kind}`, () => {
    test('two stores sealing at once replace each secret once, and each opens to what was kept', async () => {
      const db = await freshDatabase(kind)
      try {
        const secrets = await subscribeUnsealed(db, ['https://a.example/1', 'https://a.example/2', 'https://a.example/3'])
        const key = randomBytes(32)
        const config = loadConfig({ DATABASE_URL: db.url }).database
        const stores = [await openStore(config), await openStore(config)]
        try {
          const seal = (kept: string) => (isSealed(kept) ? null : sealSecret(kept, key))
          const replaced = await Promise.all(stores.map((store) => store.subscriptions.sealKept(seal)))
          assert.equal(
            replaced.reduce((sum, count) => sum + count, 0),
            4,
            `replaced: ${replaced.join(' + ')}`,
          )
          assert.deepEqual(await Promise.all(stores.map((store) => store.subscriptions.sealKept(seal))), [0, 0])
        } finally {
          for (const store of stores) await store.close()
        }
        for (const kept of await keptSecrets(db)) {
          const opened = [kept.secret, kept.previous_secret].filter((one) => one !== null).map((one) => openSecret(one, key))
          assert.deepEqual(opened, secrets.get(kept.id))
        }
      } finally {
        await db.drop()
      }
    })

    const starts = kind === 'sqlite' ? 'one instance of WORKERS=2' : 'two instances of WORKERS=2 at once'
    test(`are sealed at start by ${starts}, each once, and still sign; a restart changes nothing`, async () => {
      const db = await freshDatabase(kind)
      const receiver = await Receiver.start()
      const services: Service[] = []
      try {
        const key = randomBytes(32)
        const env = { ...ENV, DATABASE_URL: db.url, WEBHOOK_SECRET_KEY: key.toString('base64'), WORKERS: '2' }
        const secrets = await subscribeUnsealed(db, [receiver.url('/rotated'), receiver.url('/one'), receiver.url('/two')])
        const token = await makeToken(db.url, 'keeper', '--scope', 'plants:read,plants:write')
        const before = await keptSecrets(db)
        assert.ok(
          before.every((kept) => !isSealed(kept.secret)),
          'the earlier release kept them unsealed',
        )

        services.push(...(await Promise.all(Array.from({ length: kind === 'sqlite' ? 1 : 2 }, () => startService(env)))))
        const sealed = await keptSecrets(db)
        for (const kept of sealed) {
          const [current, previous = null] = secrets.get(kept.id) as string[]
          assert.ok(isSealed(kept.secret), `${kept.id}'s secret is sealed`)
          assert.equal(openSecret(kept.secret, key), current)
          assert.equal(kept.previous_secret === null ? null : openSecret(kept.previous_secret, key), previous)
          if (previous !== null) assert.ok(isSealed(kept.previous_secret as string), `${kept.id}'s previous secret is sealed`)
        }

        const created = await fetch(`${services[0]?.url}/plants`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ id: 5601, name: 'resealed' }),
        })
        assert.equal(created.status, 200)
        const received = await receiver.until((all) => all.length >= 3)
        for (const [hook, id] of [
          ['/rotated', 'sub_unsealed_0'],
          ['/one', 'sub_unsealed_1'],
          ['/two', 'sub_unsealed_2'],
        ] as const) {
          const delivery = received.find((one) => one.path === hook)
          for (const secret of secrets.get(id) as string[]) {
            assert.doesNotThrow(() => new Webhook(secret).verify(delivery?.body ?? '', delivery?.headers as Record<string, string>))
          }
        }
        const sealedCounts = services.flatMap((service) =>
          service
            .stdout()
            .split('\n')
            .filter((line) => line.includes('kept unsealed by an earlier release are sealed now'))
            .map((line) => (JSON.parse(line) as { sealed: number }).sealed),
        )
        assert.equal(
          sealedCounts.reduce((sum, count) => sum + count, 0),
          4,
          `each of the 4 secrets sealed once, by whichever process came first: ${sealedCounts.join(', ')}`,
        )
        const stopped = services.splice(0)
        for (const service of stopped) assert.equal(await service.stop(), 0)
        for (const service of stopped) assert.doesNotMatch(service.stdout(), /"level":50/)

        services.push(await startService(env))
        assert.deepEqual(await keptSecrets(db), sealed, 'a start with nothing unsealed writes nothing')
      } finally {
        for (const service of services) await service.stop()
        await receiver.close()
        await db.drop()
      }
    })
  })
}
