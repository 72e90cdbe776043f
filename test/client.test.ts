import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import {
  type Plant,
  PlantStoreClient,
  PlantStoreError,
  WebhookVerificationError,
  verifyWebhook,
  verifyWebhookEvent,
} from '@plantstore/client'
import { Webhook } from 'standardwebhooks'
import { CLIENT_TYPES_FILE, clientTypes } from '../scripts/client-types.js'
import { STORE_KINDS } from '../support/databases.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'

const TWO_53_PLUS_1 = 2n ** 53n + 1n
const INT64_MAX = 2n ** 63n - 1n
const INT64_MIN = -(2n ** 63n)

async function rejection(promise: Promise<unknown>): Promise<PlantStoreError> {
  const error = await promise.then(
    () => assert.fail('the call succeeded'),
    (reason: unknown) => reason,
  )
  assert.ok(error instanceof PlantStoreError, `a PlantStoreError, not ${String(error)}`)
  return error
}

async function collect(plants: AsyncIterable<Plant>): Promise<Plant[]> {
  const all: Plant[] = []
  for await (const plant of plants) all.push(plant)
  return all
}

for (const kind of STORE_KINDS) {
  describe(`@plantstore/client against the service on ${kind}`, () => {
    let fx: ServiceFixture
    let client: PlantStoreClient
    before(async () => {
      fx = await startFixture(kind)
      client = new PlantStoreClient({ baseUrl: fx.service.url, token: await fx.token('client-user') })
    })
    after(() => fx.close())

    test('ids at 2^53 + 1 and at both ends of int64 are created and found under their exact value', async () => {
      for (const [id, name] of [
        [TWO_53_PLUS_1, 'above doubles'],
        [TWO_53_PLUS_1 - 1n, 'its float neighbour'],
        [INT64_MAX, 'largest'],
        [INT64_MIN, 'smallest'],
      ] as const) {
        assert.deepEqual(await client.createPlant({ id, name }), { name })
      }
      assert.deepEqual(await client.getPlant(TWO_53_PLUS_1), { name: 'above doubles' })
      assert.deepEqual(await client.getPlant(TWO_53_PLUS_1 - 1n), { name: 'its float neighbour' })
      assert.deepEqual(await client.getPlant(INT64_MAX), { name: 'largest' })
      assert.deepEqual(await client.getPlant(INT64_MIN), { name: 'smallest' })
    })

    test('listPlants gives next as { limit, after } with the exact id from the Link header', async () => {
      const page = await client.listPlants({ limit: 2, after: 0n })
      assert.deepEqual(page.plants, [{ name: 'its float neighbour' }, { name: 'above doubles' }])
      assert.deepEqual(page.next, { limit: 2, after: TWO_53_PLUS_1 })
      const last = await client.listPlants(page.next ?? undefined)
      assert.deepEqual(last, { plants: [{ name: 'largest' }], next: null })
    })

    test('listAll follows the Link headers through every page, with a tag filter kept', async () => {
      const tagged = new PlantStoreClient({ baseUrl: fx.service.url, token: await fx.token('client-pages') })
      for (let i = 1n; i <= 7n; i++)
        await tagged.createPlant({ id: 10_000_000_000_000_000n + i, name: `p${i}`, tag: i % 2n === 0n ? 'even' : 'odd' })
      const everything = await collect(tagged.listAll({ pageSize: 3 }))
      assert.deepEqual(
        everything.map((plant) => plant.name),
        ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'],
      )
      assert.deepEqual(await collect(tagged.listAll({ tag: 'even', pageSize: 2 })), [
        { name: 'p2', tag: 'even' },
        { name: 'p4', tag: 'even' },
        { name: 'p6', tag: 'even' },
      ])
    })

    test('a retried create with one idempotencyKey creates one plant and answers both times', async () => {
      const plant = { id: TWO_53_PLUS_1 + 100n, name: 'retried', tag: '' }
      assert.deepEqual(await client.createPlant(plant, { idempotencyKey: 'client-retry-1' }), { name: 'retried', tag: '' })
      assert.deepEqual(await client.createPlant(plant, { idempotencyKey: 'client-retry-1' }), { name: 'retried', tag: '' })
      const error = await rejection(client.createPlant(plant))
      assert.equal(error.status, 400)
      assert.equal(error.message, `plant ${plant.id} already exists`)
    })

    test('a failed call throws PlantStoreError with the status, the Error message and the request id', async () => {
      const missing = await rejection(client.getPlant(42n))
      assert.equal(missing.status, 404)
      assert.equal(missing.message, 'plant 42 not found')
      assert.match(missing.requestId ?? '', /^[0-9a-f-]{36}$/)
      const anonymous = new PlantStoreClient({ baseUrl: fx.service.url, token: 'pst_not-a-token' })
      assert.equal((await rejection(anonymous.listPlants())).status, 401)
    })

    test('deletePlant removes the plant; a second delete is a 404', async () => {
      await client.createPlant({ id: -5n, name: 'short-lived' })
      await client.deletePlant(-5n)
      assert.equal((await rejection(client.getPlant(-5n))).status, 404)
      assert.equal((await rejection(client.deletePlant(-5n))).status, 404)
    })

    test('create, get and updatePlant carry the ETag; ifMatch makes update and delete conditional (412 when stale)', async () => {
      const id = 4_242n
      const created = await client.createPlant({ id, name: 'versioned', tag: 'indoor' })
      assert.deepEqual([created, JSON.stringify(created)], [{ name: 'versioned', tag: 'indoor' }, '{"name":"versioned","tag":"indoor"}'])
      const read = await client.getPlant(id)
      assert.equal(read.etag, created.etag)
      const changed = await client.updatePlant(id, { tag: null }, { ifMatch: read.etag })
      assert.deepEqual(changed, { name: 'versioned' })
      assert.notEqual(changed.etag, read.etag, 'a change is a new version')
      assert.equal((await rejection(client.updatePlant(id, { name: 'late' }, { ifMatch: read.etag }))).status, 412)
      assert.equal((await rejection(client.deletePlant(id, { ifMatch: read.etag }))).status, 412)
      assert.deepEqual(await client.getPlant(id), { name: 'versioned' })
      await client.deletePlant(id, { ifMatch: changed.etag })
      assert.equal((await rejection(client.getPlant(id))).status, 404)
    })

    test('an id that is a number or outside int64 is refused before any request', async () => {
      await assert.rejects(client.getPlant(7 as unknown as bigint), TypeError)
      await assert.rejects(client.createPlant({ id: INT64_MAX + 1n, name: 'too big' }), RangeError)
    })
  })
}

describe('verifyWebhook', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`
  const signer = new Webhook(secret)
  const body = `{"id":${INT64_MAX},"name":"Monstera","tag":"indoor"}`
  const signed = (payload: string, at = new Date(), id = 'msg_2Qz') => ({
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signer.sign(id, at, payload),
    'plantstore-event': 'newPlant',
  })

  test('a body signed by the standardwebhooks package gives the plant with its exact id', () => {
    assert.deepEqual(verifyWebhook(body, signed(body), secret), { id: INT64_MAX, name: 'Monstera', tag: 'indoor' })
    assert.deepEqual(verifyWebhook(Buffer.from(body), new Headers(signed(body)), secret).id, INT64_MAX)
  })

  test('an altered body, another secret, an old timestamp or no signature is refused', () => {
    const headers = signed(body)
    assert.throws(() => verifyWebhook(body.replace('Monstera', 'Monsterb'), headers, secret), WebhookVerificationError)
    assert.throws(() => verifyWebhook(body, headers, `whsec_${randomBytes(24).toString('base64')}`), WebhookVerificationError)
    const old = new Date(Date.now() - 6 * 60_000)
    assert.throws(() => verifyWebhook(body, signed(body, old), secret), /too old/)
    assert.throws(() => verifyWebhook(body, { ...headers, 'webhook-signature': '' }, secret), /missing/)
  })
})

test('the committed client types are what openapi-typescript generates from the served document', async () => {
  const fx = await startFixture('sqlite')
  try {
    const served = (await fx.api.request('GET', '/openapi.json')).text
    assert.equal(readFileSync(CLIENT_TYPES_FILE, 'utf8'), await clientTypes(served), 'run `npm run generate:client` and commit the result')
  } finally {
    await fx.close()
  }
})

describe('verifyWebhook and verifyWebhookEvent read the event type with care', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`
  const signer = new Webhook(secret)
  const body = '{"id":5,"name":"Fern"}'
  const at = new Date()
  const signed = (event: string) => ({
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signer.sign('msg_1', at, body),
    'plantstore-event': event,
  })

  test('verifyWebhook refuses a plantUpdated, plantDeleted or ping delivery: it returns only a new plant', () => {
    for (const event of ['plantUpdated', 'plantDeleted', 'ping'])
      assert.throws(() => verifyWebhook(body, signed(event), secret), /not a newPlant/)
    assert.deepEqual(verifyWebhook(body, signed('newPlant'), secret), { id: 5n, name: 'Fern' })
  })

  test('headers of a plain object are found whatever their case', () => {
    const headers = Object.fromEntries(
      Object.entries(signed('newPlant')).map(([name, value]) => [name.replace(/\b[a-z]/g, (c) => c.toUpperCase()), value]),
    )
    assert.ok('Webhook-Id' in headers)
    assert.deepEqual(verifyWebhook(body, headers, secret), { id: 5n, name: 'Fern' })
    assert.deepEqual(verifyWebhookEvent(body, headers, secret), { type: 'newPlant', plant: { id: 5n, name: 'Fern' } })
  })
})
