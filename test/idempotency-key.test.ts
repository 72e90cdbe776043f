import assert from 'node:assert/strict'
import { request as httpRequest } from 'node:http'
import { type Server, type Socket, connect, createServer } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { STORE_KINDS, freshDatabase } from '../support/databases.js'
import { makeToken, startService } from '../support/service.js'
import { Api } from './helpers/api.js'
import { startFixture } from './helpers/fixture.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'

const replayed = (response: { headers: Headers }) => response.headers.get('idempotent-replayed')

for (const kind of STORE_KINDS) {
  describe(`Idempotency-Key on POST /plants, on ${kind}`, () => {
    let fx: InProcessFixture
    let alice: string
    let bob: string

    before(async () => {
      fx = await buildFixture(kind)
      ;[alice, bob] = await Promise.all([fx.token('alice'), fx.token('bob')])
    })
    after(() => fx.close())

    const create = (token: string, key: string, json: string) =>
      fx.api.request('POST', '/plants', { token, json, headers: { 'idempotency-key': key } })

    test('a retry with the same key and request gets the first answer again, marked replayed, and creates nothing new', async () => {
      const first = await create(alice, 'key-1', '{"id":9007199254740993,"name":"Fern","tag":"shade"}')
      assert.equal(first.status, 200, first.text)
      assert.equal(replayed(first), null)
      const again = await create(alice, 'key-1', '{"id":9007199254740993,"name":"Fern","tag":"shade"}')
      assert.equal(again.status, 200, again.text)
      assert.equal(replayed(again), 'true')
      assert.equal(again.text, first.text)
      assert.equal(again.headers.get('location'), '/plants/9007199254740993')
      assert.deepEqual(await fx.api.listPlants(alice), [{ name: 'Fern', tag: 'shade' }])
    })

    test('a first answer of 400 already exists is kept and replayed too', async () => {
      assert.equal((await fx.api.createPlant(bob, { id: 20, name: "Bob's" })).status, 200)
      const first = await create(alice, 'key-2', '{"id":20,"name":"Mine"}')
      assert.equal(first.status, 400)
      assert.match((first.body as { message: string }).message, /20 already exists/)
      const again = await create(alice, 'key-2', '{"id":20,"name":"Mine"}')
      assert.equal(again.status, 400)
      assert.equal(replayed(again), 'true')
      assert.equal(again.text, first.text)
    })

    test('the same key with a different request is a 422, and nothing is created', async () => {
      assert.equal((await create(alice, 'key-3', '{"id":30,"name":"Ivy"}')).status, 200)
      for (const json of ['{"id":31,"name":"Ivy"}', '{"id":30,"name":"Ivy 2"}', '{"id":30,"name":"Ivy","tag":""}']) {
        const other = await create(alice, 'key-3', json)
        assert.equal(other.status, 422, json)
        assert.match((other.body as { message: string }).message, /Idempotency-Key/)
      }
      assert.equal((await fx.api.request('GET', '/plants/31', { token: alice })).status, 404)
    })

    test('properties the request ignores do not make it a different request', async () => {
      assert.equal((await create(alice, 'key-4', '{"id":40,"name":"Palm"}')).status, 200)
      const again = await create(alice, 'key-4', '{"name":"Palm","colour":"green","id":40}')
      assert.equal(again.status, 200)
      assert.equal(replayed(again), 'true')
    })

    test("keys belong to their subject: another subject's request with the same key is its own", async () => {
      assert.equal((await create(alice, 'shared-key', '{"id":50,"name":"A"}')).status, 200)
      const bobs = await create(bob, 'shared-key', '{"id":51,"name":"B"}')
      assert.equal(bobs.status, 200)
      assert.equal(replayed(bobs), null)
      assert.deepEqual(await fx.api.listPlants(bob, '?after=49'), [{ name: 'B' }])
    })

    test('a quoted key is the same key as its bare form', async () => {
      assert.equal((await create(alice, 'quoted', '{"id":60,"name":"Q"}')).status, 200)
      const again = await create(alice, '"quoted"', '{"id":60,"name":"Q"}')
      assert.equal(replayed(again), 'true')
    })

    test('errors raised before the store keep nothing: the key may be used again', async () => {
      const reader = await fx.token('alice', '--scope', 'plants:read')
      assert.equal((await create(alice, 'key-5', '{"id":70}')).status, 400)
      assert.equal((await create(reader, 'key-5', '{"id":70,"name":"R"}')).status, 403)
      const real = await create(alice, 'key-5', '{"id":70,"name":"Real"}')
      assert.equal(real.status, 200)
      assert.equal(replayed(real), null)
    })

    const badKeys: [string, string][] = [
      ['an empty key', ''],
      ['256 characters', 'k'.repeat(256)],
      ['a space inside', 'a b'],
      ['a non-ASCII character', 'clé'],
      ['an empty quoted string', '""'],
      ['a quote left open', '"abc'],
    ]
    for (const [what, key] of badKeys) {
      test(`a key with ${what} is a 400 naming Idempotency-Key, and nothing is created`, async () => {
        const response = await create(alice, key, '{"id":80,"name":"Never"}')
        assert.equal(response.status, 400, response.text)
        assert.match((response.body as { message: string }).message, /Idempotency-Key|idempotency-key/)
        assert.equal((await fx.api.request('GET', '/plants/80', { token: alice })).status, 404)
      })
    }

    test('requests with one key at once: one creates, the others are 409 with Retry-After or replays', async () => {
      const answers = await Promise.all(Array.from({ length: 10 }, () => create(alice, 'burst', '{"id":90,"name":"Burst"}')))
      const fresh = answers.filter((answer) => answer.status === 200 && replayed(answer) === null)
      assert.equal(fresh.length, 1, answers.map((answer) => answer.status).join(','))
      for (const answer of answers) {
        assert.ok(answer.status === 200 || answer.status === 409, answer.text)
        if (answer.status === 409) assert.ok(Number(answer.headers.get('retry-after')) > 0)
      }
      assert.ok(
        answers.some((answer) => answer.status === 409),
        'the burst overlapped the first commit',
      )
      assert.deepEqual(await fx.api.listPlants(alice, '?after=89&limit=1'), [{ name: 'Burst' }])
    })
  })

  describe(`IDEMPOTENCY_TTL, on ${kind}`, () => {
    test("after the key's lifetime the same key is new again", async () => {
      const fx = await buildFixture(kind, { IDEMPOTENCY_TTL: '1s' })
      try {
        const alice = await fx.token('alice')
        const headers = { 'idempotency-key': 'short-lived' }
        assert.equal((await fx.api.request('POST', '/plants', { token: alice, json: '{"id":1,"name":"A"}', headers })).status, 200)
        await new Promise((resolve) => setTimeout(resolve, 1_100))
        const later = await fx.api.request('POST', '/plants', { token: alice, json: '{"id":2,"name":"B"}', headers })
        assert.equal(later.status, 200, later.text)
        assert.equal(replayed(later), null)
        // The second create rewrote the key's one row; pruning everything kept before a minute
        // from now finds exactly that row (a `before` of now could fall in its own millisecond).
        assert.equal(await fx.store.plants.pruneIdempotencyKeys(new Date(Date.now() + 60_000), 1_000), 1)
      } finally {
        await fx.close()
      }
    })
  })
}

/** A loopback proxy that forwards each request and cuts the client off as the answer starts: a lost answer. */
async function answerLosingProxy(target: URL): Promise<{ url: string; server: Server }> {
  const server = createServer((client: Socket) => {
    const upstream = connect(Number(target.port), target.hostname)
    client.pipe(upstream)
    upstream.once('data', () => {
      client.destroy()
      upstream.destroy()
    })
    client.on('error', () => upstream.destroy())
    upstream.on('error', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address() as { port: number }
  return { url: `http://127.0.0.1:${address.port}`, server }
}

function postThrough(url: string, token: string, key: string, body: string): Promise<number | 'lost'> {
  return new Promise((resolve) => {
    const request = httpRequest(
      `${url}/plants`,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key } },
      (response) => resolve(response.statusCode ?? 0),
    )
    request.on('error', () => resolve('lost'))
    request.end(body)
  })
}

for (const kind of STORE_KINDS) {
  describe(`a lost answer, on ${kind}`, () => {
    test('a create whose answer is cut off is committed, and its retry with the same key gets the replay', async () => {
      const fx = await startFixture(kind)
      const proxy = await answerLosingProxy(new URL(fx.service.url))
      try {
        const token = await fx.token('retrier')
        const body = '{"id":9223372036854775807,"name":"Lost answer"}'
        assert.equal(await postThrough(proxy.url, token, 'lost-1', body), 'lost')
        const retry = await fx.api.request('POST', '/plants', { token, json: body, headers: { 'idempotency-key': 'lost-1' } })
        assert.equal(retry.status, 200, retry.text)
        assert.equal(replayed(retry), 'true')
        assert.deepEqual(await fx.api.listPlants(token), [{ name: 'Lost answer' }])
      } finally {
        proxy.server.close()
        await fx.close()
      }
    })
  })
}

if (STORE_KINDS.includes('postgres')) {
  describe('Idempotency-Key across two instances on PostgreSQL', () => {
    test('30 concurrent requests with one key over two instances make one plant; every answer is 200 or 409', async () => {
      const db = await freshDatabase('postgres')
      const [one, two] = await Promise.all([startService({ DATABASE_URL: db.url }), startService({ DATABASE_URL: db.url })])
      try {
        const token = await makeToken(db.url, 'racer')
        const apis = await Promise.all([Api.connect(one.url), Api.connect(two.url)])
        const answers = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            (apis[i % 2] as Api).request('POST', '/plants', {
              token,
              json: '{"id":4242,"name":"Raced"}',
              headers: { 'idempotency-key': 'one-key' },
            }),
          ),
        )
        for (const answer of answers) assert.ok(answer.status === 200 || answer.status === 409, `${answer.status} ${answer.text}`)
        assert.equal(answers.filter((answer) => answer.status === 200 && replayed(answer) === null).length, 1)
        assert.deepEqual(await (apis[0] as Api).listPlants(token), [{ name: 'Raced' }])
      } finally {
        await Promise.all([one.stop(), two.stop()])
        await db.drop()
      }
    })
  })
}
