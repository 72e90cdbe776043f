import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { POSTGRES_UNAVAILABLE, type TestDatabase, freshDatabase, runOnDatabase } from '../../support/databases.js'
import { type Received, Receiver } from '../../support/receiver.js'
import { type Service, runCli, startService } from '../../support/service.js'
import { type Installed, PREVIOUS_RELEASE, installPreviousRelease } from './previous-release.js'

/** Plants in the table before the upgrade: enough that a migration that rewrites or scans it shows as stalled writes. */
const SEEDED_PLANTS = 200_000
const PLANT_WORKERS_PER_RELEASE = 3
/** How long the previous release is loaded alone before HEAD's migrate, and both together after. */
const ALONE_MS = 2_000
const TOGETHER_MS = 8_000
const REQUEST_TIMEOUT_MS = 30_000

type Release = 'previous' | 'head'

interface Write {
  release: Release
  what: string
  status: number
  startedAt: number
  endedAt: number
}

/** What the load generator saw acknowledged, to check against both releases afterwards. */
interface Ledger {
  writes: Write[]
  /** Plants whose create was acknowledged and not deleted since, with the name last acknowledged. */
  live: Map<string, string>
  /** Plants whose delete was acknowledged. */
  deleted: Set<string>
  /** Every create acknowledged (each wants a newPlant event); every delete acknowledged (a plantDeleted). */
  created: Set<string>
  /** Live plants the previous release created, for HEAD to change. */
  previousOwn: string[]
}

const ids = (received: { body: string }[]) => new Set(received.map((event) => /"id":"?([0-9]+)/.exec(event.body)?.[1]))

describe(
  `the previous release (${PREVIOUS_RELEASE.slice(0, 12)}) and HEAD on one PostgreSQL database`,
  { skip: POSTGRES_UNAVAILABLE ?? false },
  () => {
    let installed: Installed
    let db: TestDatabase
    let receiver: Receiver
    const services: Service[] = []

    before(async () => {
      installed = await installPreviousRelease()
      console.log(`# the previous release installed in ${(installed.installMs / 1000).toFixed(1)} s`)
      db = await freshDatabase('postgres')
      receiver = await Receiver.start()
    })
    after(async () => {
      for (const service of services) await service.stop()
      await receiver?.close()
      await db?.drop()
      installed?.remove()
    })

    test("serve together through HEAD's migrate: no 5xx, every acknowledged write seen by both, every event delivered", async () => {
      const env = {
        DATABASE_URL: db.url,
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
        WEBHOOK_RETRY_DELAYS: '1s',
      }
      const previousCli = (args: string[]) => runCli(args, env, installed.root, installed.root)
      const migrated = await previousCli(['migrate'])
      assert.equal(migrated.code, 0, migrated.stderr)
      await runOnDatabase(
        db,
        "INSERT INTO plants (id, owner, name) SELECT i, 'seed', 'seeded ' || i FROM generate_series(1, $1::int) AS i",
        [SEEDED_PLANTS],
      )
      await runOnDatabase(db, 'ANALYZE plants')
      const token = async (...args: string[]) => {
        const made = await previousCli(['token', 'create', ...args])
        assert.equal(made.code, 0, made.stderr)
        return made.stdout.trim()
      }
      const admin = await token('--subject', 'operator', '--scope', 'plants:read,plants:write,plants:admin,webhooks:manage')
      const user = await token('--subject', 'alice', '--scope', 'plants:read,plants:write,webhooks:manage')

      const previous = await startService(env, { root: installed.root })
      services.push(previous)
      const urls: Record<Release, string> = { previous: previous.url, head: '' }
      const ledger: Ledger = { writes: [], live: new Map(), deleted: new Set(), created: new Set(), previousOwn: [] }

      const call = async (
        release: Release,
        what: string,
        method: string,
        path: string,
        bearer: string,
        body?: unknown,
        type = 'application/json',
      ) => {
        const startedAt = performance.now()
        const response = await fetch(`${urls[release]}${path}`, {
          method,
          headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': type }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        })
        const text = await response.text()
        const endedAt = performance.now()
        if (method !== 'GET') ledger.writes.push({ release, what, status: response.status, startedAt, endedAt })
        if (response.status >= 500) console.log(`# ${release} ${method} ${path}: ${response.status} ${text}`)
        return { status: response.status, text }
      }

      // Events of every plant, from either release, go to one receiver through subscriptions kept throughout.
      for (const [path, events] of [
        ['/created', ['newPlant']],
        ['/deleted', ['plantDeleted']],
      ] as const) {
        const made = await call('previous', 'subscribe', 'POST', '/webhooks', admin, { url: receiver.url(path), events })
        assert.equal(made.status, 201, made.text)
      }

      let nextId = 10_000_000
      let stopping = false
      const plantWorker = async (release: Release) => {
        for (let round = 0; !stopping && round < 100_000; round++) {
          const id = String(nextId++)
          const made = await call(release, 'create', 'POST', '/plants', user, { id: Number(id), name: `plant ${id}` })
          if (made.status !== 200 && made.status !== 201) continue
          ledger.created.add(id)
          ledger.live.set(id, `plant ${id}`)
          if (release === 'head') {
            // The previous release has no PATCH: HEAD changes its own plants and the previous one's.
            const target = ledger.previousOwn.shift() ?? id
            const name = `patched ${target} by head`
            const patched = await call('head', 'patch', 'PATCH', `/plants/${target}`, user, { name }, 'application/merge-patch+json')
            if (patched.status === 200) ledger.live.set(target, name)
            if (target !== id) ledger.previousOwn.push(target)
          } else if (round % 4 !== 0) {
            ledger.previousOwn.push(id)
          }
          if (round % 4 === 0) {
            const gone = await call(release, 'delete', 'DELETE', `/plants/${id}`, user)
            if (gone.status === 204) {
              ledger.live.delete(id)
              ledger.deleted.add(id)
            }
          }
        }
      }
      // Subscriptions made, disabled and deleted while plants are written: the race of migration 009's foreign key.
      const subscriptionWorker = async (release: Release) => {
        for (let round = 0; !stopping && round < 100_000; round++) {
          const made = await call(release, 'subscribe', 'POST', '/webhooks', user, {
            url: receiver.url('/churn'),
            events: ['newPlant', 'plantDeleted'],
          })
          if (made.status !== 201) continue
          const id = (JSON.parse(made.text) as { id: string }).id
          const other: Release = urls.head !== '' && round % 2 === 0 ? (release === 'head' ? 'previous' : 'head') : release
          await call(other, 'disable', 'PATCH', `/webhooks/${id}`, user, { enabled: false }, 'application/merge-patch+json')
          await call(release, 'unsubscribe', 'DELETE', `/webhooks/${id}`, user)
        }
      }
      const load = (release: Release) => [
        ...Array.from({ length: PLANT_WORKERS_PER_RELEASE }, () => plantWorker(release)),
        subscriptionWorker(release),
      ]
      const until = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

      const running = load('previous')
      await until(ALONE_MS)
      const migrateStartedAt = performance.now()
      const headMigrate = await runCli(['migrate'], { DATABASE_URL: db.url })
      const migrateEndedAt = performance.now()
      if (headMigrate.code !== 0) {
        // The load stops before the failure is told: no request outlives the test.
        stopping = true
        await Promise.all(running)
      }
      assert.equal(headMigrate.code, 0, headMigrate.stderr)

      const head = await startService(env)
      services.push(head)
      urls.head = head.url
      running.push(...load('head'))
      await until(TOGETHER_MS)
      stopping = true
      await Promise.all(running)

      const failed = ledger.writes.filter((write) => write.status >= 500)
      const during = ledger.writes.filter((write) => write.endedAt >= migrateStartedAt && write.startedAt <= migrateEndedAt)
      const longest = Math.max(0, ...during.map((write) => write.endedAt - write.startedAt))
      const count = (release: Release) => ledger.writes.filter((write) => write.release === release).length
      console.log(
        `# migrate took ${(migrateEndedAt - migrateStartedAt).toFixed(0)} ms; ${during.length} writes overlapped it, the longest ${longest.toFixed(0)} ms; ` +
          `writes: ${count('previous')} by the previous release, ${count('head')} by HEAD; ${failed.length} answered 5xx`,
      )
      const answers = new Map<string, number>()
      for (const write of ledger.writes) {
        const key = `${write.release} ${write.what} ${write.status}`
        answers.set(key, (answers.get(key) ?? 0) + 1)
      }
      console.log(`# answers: ${[...answers].map(([key, n]) => `${key}: ${n}`).join(', ')}`)
      assert.deepEqual(
        failed.map((write) => `${write.release} ${write.what} ${write.status}`),
        [],
        'no write answered 5xx',
      )
      assert.ok(ledger.created.size > 0 && ledger.deleted.size > 0, 'the load created and deleted plants')
      assert.ok(
        ledger.writes.some((write) => write.release === 'head' && write.what === 'patch' && write.status === 200),
        'HEAD changed plants',
      )

      for (const release of ['previous', 'head'] as const) {
        for (const [id, name] of ledger.live) {
          const read = await call(release, 'read', 'GET', `/plants/${id}`, user)
          assert.equal(read.status, 200, `${release} serves plant ${id}`)
          assert.equal((JSON.parse(read.text) as { name: string }).name, name, `${release} serves plant ${id} as last acknowledged`)
        }
        for (const id of ledger.deleted) {
          assert.equal((await call(release, 'read', 'GET', `/plants/${id}`, user)).status, 404, `${release} no longer serves plant ${id}`)
        }
      }
      const seeded = await call('head', 'read', 'GET', `/plants/${SEEDED_PLANTS}`, admin)
      assert.equal(seeded.status, 200, 'HEAD serves a plant written before the upgrade')
      assert.equal((JSON.parse(seeded.text) as { name: string }).name, `seeded ${SEEDED_PLANTS}`)

      const createdAt = (received: Received[]) => received.filter((event) => event.path === '/created')
      const deletedAt = (received: Received[]) => received.filter((event) => event.path === '/deleted')
      const everyId = (wanted: Set<string>, got: Set<string | undefined>) => [...wanted].every((id) => got.has(id))
      await receiver
        .until((received) => everyId(ledger.created, ids(createdAt(received))) && everyId(ledger.deleted, ids(deletedAt(received))), 90_000)
        .catch(() => {
          const created = ids(createdAt(receiver.received))
          const deleted = ids(deletedAt(receiver.received))
          const missing = [...[...ledger.created].filter((id) => !created.has(id)), ...[...ledger.deleted].filter((id) => !deleted.has(id))]
          assert.fail(`${missing.length} events never delivered, such as plants ${missing.slice(0, 5).join(', ')}`)
        })
    })
  },
)
