import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { loadConfig } from '../src/config/config.js'
import { openStore } from '../src/open-store.js'
import { retryDelay } from '../src/webhooks/retry.js'
import { STORE_KINDS, freshDatabase } from '../support/databases.js'

/** A create's outcome as a yes or no: it answers the new plant's version, null when the id exists. */
const wasCreated = (version: number | null) => version !== null

const DELAYS = [5_000, 300_000, 1_800_000]

describe('retry delays', () => {
  test('each delay moves by at most 20 % either way, and after the last the event is given up', () => {
    assert.equal(
      retryDelay(1, DELAYS, null, () => 0),
      4_000,
    )
    assert.equal(
      retryDelay(1, DELAYS, null, () => 1),
      6_000,
    )
    assert.equal(
      retryDelay(2, DELAYS, null, () => 0.5),
      300_000,
    )
    assert.equal(
      retryDelay(3, DELAYS, null, () => 0.5),
      1_800_000,
    )
    assert.equal(
      retryDelay(4, DELAYS, null, () => 0.5),
      null,
    )
  })

  test("a receiver's Retry-After lengthens the wait up to the next delay, and never shortens it", () => {
    assert.equal(
      retryDelay(1, DELAYS, 60, () => 0.5),
      60_000,
    )
    assert.equal(
      retryDelay(1, DELAYS, 3_600, () => 0.5),
      300_000,
      'capped at the next delay',
    )
    assert.equal(
      retryDelay(1, DELAYS, 1, () => 0.5),
      5_000,
      'not shortened',
    )
    assert.equal(
      retryDelay(3, DELAYS, 99_999, () => 0.5),
      1_800_000,
      'the last delay caps itself',
    )
  })

  test('WEBHOOK_RETRY_DELAYS takes ms, s, m, h and d', () => {
    assert.deepEqual(
      loadConfig({ WEBHOOK_RETRY_DELAYS: '200ms,5s,5m,2h,1d' }).webhooks.retryDelaysMs,
      [200, 5_000, 300_000, 7_200_000, 86_400_000],
    )
    assert.deepEqual(loadConfig({}).webhooks.retryDelaysMs, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000])
  })
})

for (const kind of STORE_KINDS) {
  test(`on ${kind}, finished events are pruned after the retention, pending ones never`, async () => {
    const db = await freshDatabase(kind)
    const store = await openStore(loadConfig({ DATABASE_URL: db.url }).database)
    try {
      await store.subscriptions.create(
        {
          id: 'wh_prune',
          subject: 'pruner',
          allPlants: false,
          url: 'https://hooks.example.com/',
          events: ['newPlant'],
          secret: 'whsec_AAAA',
        },
        25,
      )
      for (const id of [1n, 2n, 3n])
        assert.equal(await store.plants.create({ id, owner: 'pruner', name: `p${id}`, tag: null }).then(wasCreated), true)
      const claims = await store.outbox.claim(2, 60_000, {
        perSubscription: 2,
        perSubject: 2,
        heldBySubscription: new Map(),
        heldBySubject: new Map(),
      })
      assert.equal(claims.length, 2)
      const [delivered, givenUp] = claims as [(typeof claims)[0], (typeof claims)[0]]
      await store.outbox.finish(
        [
          { claim: delivered, outcome: { kind: 'delivered', result: 'HTTP 200' }, status: 200 },
          { claim: givenUp, outcome: { kind: 'given-up', result: 'HTTP 500' }, status: 500 },
        ],
        { disableAfterMs: null },
      )
      assert.equal(await store.outbox.prune(new Date(Date.now() - 60_000), 1_000), 0, 'kept within the retention')
      assert.equal(await store.outbox.prune(new Date(Date.now() + 60_000), 1), 1, 'in batches of the limit')
      assert.equal(await store.outbox.prune(new Date(Date.now() + 60_000), 1_000), 1)
      assert.equal((await store.outbox.backlog()).pending, 1, 'the third event is still pending')
      assert.equal(await store.subscriptions.delete('wh_prune', null), true)
      assert.deepEqual(await store.outbox.backlog(), { pending: 0, oldestCreatedAt: null }, 'its events went with the subscription')
    } finally {
      await store.close()
      await db.drop()
    }
  })
}
