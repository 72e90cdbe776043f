import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { verifyWebhook } from '@plantstore/client'
import { Webhook } from 'standardwebhooks'
import { STORE_KINDS } from '../support/databases.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'
import { Receiver, pause } from '../support/receiver.js'

/** The receivers listen on loopback, which webhooks may reach only when allowed. */
export const WEBHOOK_TEST_ENV = {
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
  WEBHOOK_RETRY_DELAYS: '100ms,100ms,100ms',
  WEBHOOK_TIMEOUT_MS: '2000',
}
const MANAGE = ['--scope', 'plants:read,plants:write,webhooks:manage']
const INT64_MAX = 2n ** 63n - 1n

interface Created {
  id: string
  url: string
  secret: string
  allPlants: boolean
  status: string
}

for (const kind of STORE_KINDS) {
  describe(`webhooks on ${kind}`, () => {
    let fx: InProcessFixture
    let receiver: Receiver
    let nextId = 1_000n
    before(async () => {
      fx = await buildFixture(kind, WEBHOOK_TEST_ENV)
      receiver = await Receiver.start()
    })
    after(async () => {
      await fx.close()
      await receiver.close()
    })

    const subscribe = async (token: string, url: string): Promise<Created> => {
      const answer = await fx.api.request<Created>('POST', '/webhooks', { token, json: { url } })
      assert.equal(answer.status, 201, answer.text)
      assert.equal(answer.headers.get('location'), `/webhooks/${answer.body.id}`)
      return answer.body
    }
    const unsubscribe = async (token: string, id: string) => {
      assert.equal((await fx.api.request('DELETE', `/webhooks/${id}`, { token })).status, 204)
    }
    const plant = async (token: string, name: string, id = nextId++): Promise<bigint> => {
      const answer = await fx.api.createPlant(token, { id, name })
      assert.equal(answer.status, 200, answer.text)
      return id
    }
    /** A receiver of its own for one test, with what it answers. */
    const withReceiver = async (work: (own: Receiver) => Promise<void>) => {
      const own = await Receiver.start()
      try {
        await work(own)
      } finally {
        await own.close()
      }
    }

    test('POST /webhooks answers 201 with a whsec_ secret shown once; GET lists it without the secret', async () => {
      const token = await fx.token('lister', ...MANAGE)
      const made = await subscribe(token, receiver.url('/listed'))
      assert.match(made.id, /^wh_/)
      assert.match(made.secret, /^whsec_[A-Za-z0-9+/]{32}$/)
      assert.equal(Buffer.from(made.secret.slice(6), 'base64').length, 24)
      assert.deepEqual({ allPlants: made.allPlants, status: made.status }, { allPlants: false, status: 'active' })
      const listed = await fx.api.request<Record<string, unknown>[]>('GET', '/webhooks', { token })
      assert.equal(listed.status, 200)
      assert.deepEqual(
        listed.body.map((subscription) => [subscription.id, subscription.url, 'secret' in subscription]),
        [[made.id, receiver.url('/listed'), false]],
      )
      assert.equal(JSON.stringify(listed.body).includes(made.secret), false)
      await unsubscribe(token, made.id)
    })

    test('each new plant is POSTed once, signed per Standard Webhooks, its id exact at 2^63 - 1', async () => {
      await withReceiver(async (own) => {
        const token = await fx.token('signer', ...MANAGE)
        const { id, secret } = await subscribe(token, own.url())
        await plant(token, 'Monstera', INT64_MAX)
        const [event] = await own.until((received) => received.length === 1)
        assert.ok(event)
        assert.equal(event.body, '{"id":9223372036854775807,"name":"Monstera"}')
        assert.match(event.headers['content-type'] ?? '', /^application\/json/)
        assert.match(String(event.headers['webhook-id']), /^msg_[0-9a-f]{32}$/)
        const headers = event.headers as Record<string, string>
        assert.doesNotThrow(() => new Webhook(secret).verify(event.body, headers), 'the standardwebhooks package verifies it')
        assert.deepEqual(verifyWebhook(event.body, headers, secret), { id: INT64_MAX, name: 'Monstera' })
        await pause(300)
        assert.equal(own.received.length, 1, 'sent once')
        await unsubscribe(token, id)
      })
    })

    test('500, 500, 200 is three attempts of one event with one webhook-id', async () => {
      await withReceiver(async (own) => {
        own.answer = (_request, index) => ({ status: index < 2 ? 500 : 200 })
        const token = await fx.token('flaky', ...MANAGE)
        const { id } = await subscribe(token, own.url())
        await plant(token, 'retried')
        const attempts = await own.until((received) => received.length === 3)
        assert.equal(new Set(attempts.map((attempt) => attempt.headers['webhook-id'])).size, 1)
        assert.equal(new Set(attempts.map((attempt) => attempt.body)).size, 1)
        await pause(300)
        assert.equal(own.received.length, 3, 'nothing after the 200')
        await unsubscribe(token, id)
      })
    })

    test('410 Gone disables the subscription: nothing more is sent, and GET shows it disabled', async () => {
      await withReceiver(async (own) => {
        own.answer = () => ({ status: 410 })
        const token = await fx.token('gone', ...MANAGE)
        const { id } = await subscribe(token, own.url())
        await plant(token, 'first')
        await own.until((received) => received.length === 1)
        await pause(300)
        await plant(token, 'second')
        await pause(400)
        assert.equal(own.received.length, 1)
        const listed = await fx.api.request<{ id: string; status: string; disabledReason?: string }[]>('GET', '/webhooks', { token })
        assert.deepEqual(
          listed.body.map((subscription) => [subscription.id, subscription.status, subscription.disabledReason]),
          [[id, 'disabled', '410 Gone']],
        )
      })
    })

    test('a 302 is not followed: the attempt fails and is retried, the target gets nothing', async () => {
      await withReceiver(async (target) => {
        await withReceiver(async (redirecting) => {
          redirecting.answer = () => ({ status: 302, headers: { location: target.url() } })
          const token = await fx.token('redirected', ...MANAGE)
          const { id } = await subscribe(token, redirecting.url())
          await plant(token, 'moved')
          await redirecting.until((received) => received.length === 4)
          await pause(300)
          assert.equal(target.received.length, 0)
          assert.equal(redirecting.received.length, 4, 'the first attempt and three retries, then given up')
          await unsubscribe(token, id)
        })
      })
    })

    test("a subscription gets its own subject's plants; one made with plants:admin gets every plant", async () => {
      await withReceiver(async (own) => {
        const carol = await fx.token('carol', ...MANAGE)
        const dave = await fx.token('dave', ...MANAGE)
        const mine = await subscribe(carol, own.url('/carol'))
        const everyone = await subscribe(fx.adminToken, own.url('/admin'))
        assert.equal(everyone.allPlants, true)
        const carols = await plant(carol, 'of carol')
        const daves = await plant(dave, 'of dave')
        await own.until((received) => received.length === 3)
        await pause(300)
        const byPath = (path: string) => own.ids().filter((_id, i) => own.received[i]?.path === path)
        assert.deepEqual(byPath('/carol'), [carols])
        assert.deepEqual(byPath('/admin').sort(), [carols, daves].sort())
        await unsubscribe(carol, mine.id)
        await unsubscribe(fx.adminToken, everyone.id)
      })
    })

    test("another subject's subscription is neither listed nor deletable (404); the admin sees all", async () => {
      const erin = await fx.token('erin', ...MANAGE)
      const frank = await fx.token('frank', ...MANAGE)
      const hers = await subscribe(erin, receiver.url('/erin'))
      const listed = await fx.api.request<{ id: string }[]>('GET', '/webhooks', { token: frank })
      assert.equal(
        listed.body.some((subscription) => subscription.id === hers.id),
        false,
      )
      const refused = await fx.api.request('DELETE', `/webhooks/${hers.id}`, { token: frank })
      assert.equal(refused.status, 404)
      const all = await fx.api.request<{ id: string }[]>('GET', '/webhooks', { token: fx.adminToken })
      assert.ok(all.body.some((subscription) => subscription.id === hers.id))
      await unsubscribe(erin, hers.id)
      assert.equal((await fx.api.request('DELETE', `/webhooks/${hers.id}`, { token: erin })).status, 404)
    })

    test('a deleted subscription receives nothing more, pending retries included', async () => {
      await withReceiver(async (own) => {
        own.answer = () => ({ status: 503 })
        const token = await fx.token('leaver', ...MANAGE)
        const { id } = await subscribe(token, own.url())
        await plant(token, 'before')
        await own.until((received) => received.length === 1)
        await unsubscribe(token, id)
        const seen = own.received.length
        await plant(token, 'after')
        await pause(500)
        assert.ok(own.received.length <= seen + 1, 'at most the attempt under way when it was deleted')
        assert.equal(
          own.received.some((request) => request.body.includes('"after"')),
          false,
        )
      })
    })

    test('a refused create is never announced', async () => {
      await withReceiver(async (own) => {
        const token = await fx.token('refused', ...MANAGE)
        const { id } = await subscribe(token, own.url())
        const existing = await plant(token, 'original')
        await own.until((received) => received.length === 1)
        const duplicate = await fx.api.createPlant(token, { id: existing, name: 'duplicate' })
        assert.equal(duplicate.status, 400)
        const invalid = await fx.api.createPlantRaw(token, '{"id": 1.5, "name": "invalid"}')
        assert.equal(invalid.status, 400)
        await pause(400)
        assert.equal(own.received.length, 1)
        await unsubscribe(token, id)
      })
    })

    test('bad subscription bodies are 400 with an Error body, and make nothing', async () => {
      const token = await fx.token('careless', ...MANAGE)
      for (const json of [
        {},
        { url: 7 },
        { url: 'not a url' },
        { url: 'ftp://127.0.0.1/x' },
        { url: `http://127.0.0.1/${'x'.repeat(2048)}` },
      ]) {
        const answer = await fx.api.request<{ message: string }>('POST', '/webhooks', { token, json })
        assert.equal(answer.status, 400, JSON.stringify(json))
      }
      assert.deepEqual((await fx.api.request('GET', '/webhooks', { token })).body, [])
    })

    test('webhooks:manage is needed: a token without it is 403, none is 401', async () => {
      const token = await fx.token('plain')
      assert.equal((await fx.api.request('GET', '/webhooks', { token })).status, 403)
      assert.equal((await fx.api.request('POST', '/webhooks', { token, json: { url: receiver.url() } })).status, 403)
      assert.equal((await fx.api.request('GET', '/webhooks')).status, 401)
    })

    test('/metrics counts attempts by outcome and shows the pending backlog', async () => {
      const metrics = (await fx.api.request<string>('GET', '/metrics')).body
      assert.match(metrics, /webhook_deliveries_total\{outcome="delivered"\} [1-9]/)
      assert.match(metrics, /webhook_deliveries_total\{outcome="retried"\} [1-9]/)
      assert.match(metrics, /webhook_deliveries_total\{outcome="given_up"\} [1-9]/)
      assert.match(metrics, /webhook_deliveries_total\{outcome="disabled"\} 1/)
      assert.match(metrics, /webhook_pending_events [0-9]+/)
      assert.match(metrics, /webhook_oldest_pending_age_seconds [0-9.e+-]+/)
      assert.match(metrics, /webhook_delivery_duration_seconds_count [1-9]/)
      assert.match(fx.logs(), /webhook event given up after its last attempt/)
    })
  })
}

describe('outbound safety', () => {
  let fx: InProcessFixture
  let receiver: Receiver
  before(async () => {
    fx = await buildFixture('sqlite', { WEBHOOK_RETRY_DELAYS: '100ms' })
    receiver = await Receiver.start()
  })
  after(async () => {
    await fx.close()
    await receiver.close()
  })

  for (const url of [
    'http://127.0.0.1/hook',
    'http://localhost/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::127.0.0.1]/hook',
    'http://[::a9fe:a9fe]/latest/meta-data',
    'http://10.1.2.3/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/hook',
    'http://[fc00::1]/hook',
    'http://[fe80::1]/hook',
    'http://224.0.0.1/hook',
    'http://0.0.0.0/hook',
    'http://2130706433/hook',
    'file:///etc/passwd',
    'gopher://127.0.0.1/x',
    'javascript:alert(1)',
  ]) {
    test(`POST /webhooks refuses ${url} without WEBHOOK_ALLOWED_NETWORKS`, async () => {
      const answer = await fx.api.request<{ message: string }>('POST', '/webhooks', { token: fx.adminToken, json: { url } })
      assert.equal(answer.status, 400)
      assert.match(answer.body.message, /internal address|http or https/)
    })
  }

  test('a refused name is answered without the address it resolves to', async () => {
    const answer = await fx.api.request<{ message: string }>('POST', '/webhooks', {
      token: fx.adminToken,
      json: { url: 'http://localhost/hook' },
    })
    assert.equal(answer.status, 400)
    assert.match(answer.body.message, /not allowed/)
    assert.doesNotMatch(answer.body.message, /127\.0\.0\.1|::1|resolves to/)
  })

  test('at delivery, a target that is (or resolves to) loopback gets no connection', async () => {
    // Made behind the route's back, as if the name had resolved elsewhere at registration.
    for (const url of [receiver.url(), `http://localhost:${receiver.port}/hook`]) {
      await fx.store.subscriptions.create(
        {
          id: `wh_test_${randomBytes(4).toString('hex')}`,
          subject: 'admin',
          allPlants: true,
          events: ['newPlant'],
          url,
          secret: `whsec_${randomBytes(24).toString('base64')}`,
        },
        25,
      )
    }
    const created = await fx.api.createPlant(fx.adminToken, { id: 77n, name: 'not for loopback' })
    assert.equal(created.status, 200)
    await pause(800)
    assert.equal(receiver.received.length, 0)
    assert.match(fx.logs(), /may not reach/)
    assert.doesNotMatch(fx.logs(), /resolves to/, 'the log and the deliveries log never say what a name resolves to')
  })
})

for (const kind of STORE_KINDS) {
  test(`on ${kind}, with WEBHOOK_SECRET_KEY the secret is sealed at rest and deliveries still verify`, async () => {
    const fx = await buildFixture(kind, { ...WEBHOOK_TEST_ENV, WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') })
    const receiver = await Receiver.start()
    try {
      const made = await fx.api.request<Created>('POST', '/webhooks', { token: fx.adminToken, json: { url: receiver.url() } })
      assert.equal(made.status, 201)
      const [kept] = await fx.store.subscriptions.list(null)
      assert.match(kept?.secret ?? '', /^aes-256-gcm:/)
      assert.equal(kept?.secret.includes(made.body.secret.slice('whsec_'.length)), false)
      assert.equal((await fx.api.createPlant(fx.adminToken, { id: 5n, name: 'sealed' })).status, 200)
      const [event] = await receiver.until((received) => received.length === 1)
      assert.ok(event)
      assert.deepEqual(verifyWebhook(event.body, event.headers as Record<string, string>, made.body.secret), { id: 5n, name: 'sealed' })
    } finally {
      await fx.close()
      await receiver.close()
    }
  })
}
