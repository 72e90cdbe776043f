import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { TOKEN_CACHE_MS } from '../src/auth/opaque-tokens.js'
import { STORE_KINDS } from '../support/databases.js'
import { startFixture } from './helpers/fixture.js'
import { type InProcessFixture, buildFixture } from './helpers/in-process.js'
import { runCli, startService } from '../support/service.js'

const challenge = (response: { headers: Headers }) => response.headers.get('www-authenticate')

for (const kind of STORE_KINDS) {
  describe(`who may do what, on ${kind}`, () => {
    let fx: InProcessFixture
    let writer: string
    let revoked: string
    let expired: string

    before(async () => {
      fx = await buildFixture(kind)
      ;[writer, revoked, expired] = await Promise.all([
        fx.token('writer'),
        fx.token('revoked-user'),
        fx.token('expired-user', '--expires-in', '1s'),
      ])
      const listed = await fx.tokenCli('list')
      const revokedId = listed.stdout
        .split('\n')
        .find((line) => line.split('\t')[1] === 'revoked-user')
        ?.split('\t')[0]
      assert.ok(revokedId, listed.stdout)
      assert.equal((await fx.tokenCli('revoke', revokedId)).code, 0)
      // Past the expiry of the one-second token (rounded up to a whole second: under 2 s), without waiting for it.
      fx.advanceClock(2_100)
    })
    after(() => fx.close())

    describe('the Authorization header', () => {
      const table: [string, () => Record<string, string>, number, RegExp | null][] = [
        ['missing', () => ({}), 401, null],
        ['another scheme', () => ({ authorization: `Basic ${writer}` }), 401, null],
        ['the scheme without a token', () => ({ authorization: 'Bearer' }), 401, null],
        ['the scheme and a space only', () => ({ authorization: 'Bearer ' }), 401, null],
        ['no space after the scheme', () => ({ authorization: `Bearer${writer}` }), 401, null],
        ['a garbage token', () => ({ authorization: 'Bearer not-a-token' }), 401, /error="invalid_token"/],
        [
          'a token with its last character changed',
          () => ({ authorization: `Bearer ${writer.slice(0, -1)}${writer.endsWith('A') ? 'B' : 'A'}` }),
          401,
          /invalid_token/,
        ],
        ['a revoked token', () => ({ authorization: `Bearer ${revoked}` }), 401, /error="invalid_token"/],
        ['an expired token', () => ({ authorization: `Bearer ${expired}` }), 401, /error="invalid_token"/],
        ['a valid token', () => ({ authorization: `Bearer ${writer}` }), 200, null],
        ['a lowercase scheme', () => ({ authorization: `bearer ${writer}` }), 200, null],
        ['an uppercase scheme', () => ({ authorization: `BEARER ${writer}` }), 200, null],
      ]
      for (const [what, headers, status, error] of table) {
        test(`${what}: ${status}`, async () => {
          const response = await fx.api.request('GET', '/plants', { headers: headers() })
          assert.equal(response.status, status, response.text)
          if (status === 401) {
            const value = challenge(response) ?? ''
            assert.match(value, /^Bearer realm="plantstore"/)
            if (error) assert.match(value, error)
            else assert.doesNotMatch(value, /error=/)
          }
        })
      }
    })

    describe('scopes', () => {
      let reader: string
      let writeOnly: string
      before(async () => {
        ;[reader, writeOnly] = await Promise.all([
          fx.token('scoped', '--scope', 'plants:read'),
          fx.token('scoped', '--scope', 'plants:write'),
        ])
        assert.equal((await fx.api.createPlant(writeOnly, { id: 5001, name: 'scoped plant' })).status, 200)
      })

      test('when a reader creates a plant, it gets 403 insufficient_scope and nothing is created', async () => {
        const response = await fx.api.createPlant(reader, { id: 5002, name: 'nope' })
        assert.equal(response.status, 403)
        assert.match(challenge(response) ?? '', /error="insufficient_scope", scope="plants:write"/)
        assert.deepEqual(await fx.api.listPlants(reader), [{ name: 'scoped plant' }])
      })

      test('when a reader deletes a plant, it gets 403 and the plant stays', async () => {
        const response = await fx.api.request('DELETE', '/plants/5001', { token: reader })
        assert.equal(response.status, 403)
        assert.deepEqual(await fx.api.listPlants(reader), [{ name: 'scoped plant' }])
      })

      test('when a writer without plants:read lists, it gets 403 naming plants:read', async () => {
        const response = await fx.api.request('GET', '/plants', { token: writeOnly })
        assert.equal(response.status, 403)
        assert.match(challenge(response) ?? '', /scope="plants:read"/)
      })
    })

    describe('ownership', () => {
      let alice: string
      let bob: string
      before(async () => {
        ;[alice, bob] = await Promise.all([fx.token('alice'), fx.token('bob')])
        await fx.api.createPlant(alice, { id: 6001, name: 'alice 1' })
        await fx.api.createPlant(bob, { id: 6002, name: 'bob 1' })
        await fx.api.createPlant(alice, { id: 6003, name: 'alice 2' })
      })

      test('each owner lists only its own plants, both ways', async () => {
        assert.deepEqual(await fx.api.listPlants(alice), [{ name: 'alice 1' }, { name: 'alice 2' }])
        assert.deepEqual(await fx.api.listPlants(bob), [{ name: 'bob 1' }])
      })

      test('a plant of another owner is a 404 for get and delete, exactly like a missing one, and stays', async () => {
        const foreign = await fx.api.request('DELETE', '/plants/6002', { token: alice })
        const missing = await fx.api.request('DELETE', '/plants/6999', { token: alice })
        assert.equal(foreign.status, 404)
        assert.equal(missing.status, 404)
        assert.equal(
          (foreign.body as { message: string }).message.replace('6002', 'ID'),
          (missing.body as { message: string }).message.replace('6999', 'ID'),
        )
        assert.equal((await fx.api.request('GET', '/plants/6002', { token: alice })).status, 404)
        assert.deepEqual(await fx.api.listPlants(bob), [{ name: 'bob 1' }])
      })

      test('plants:admin sees the union of every owner and may delete any plant', async () => {
        const all = await fx.api.listPlants(fx.adminToken, '?after=6000&limit=3')
        assert.deepEqual(all, [{ name: 'alice 1' }, { name: 'bob 1' }, { name: 'alice 2' }])
        assert.equal((await fx.api.request('DELETE', '/plants/6002', { token: fx.adminToken })).status, 204)
        assert.deepEqual(await fx.api.listPlants(bob), [])
      })

      test('a second token of the same subject reaches the same plants', async () => {
        const alice2 = await fx.token('alice')
        assert.deepEqual(await fx.api.listPlants(alice2), [{ name: 'alice 1' }, { name: 'alice 2' }])
      })
    })

    describe('the order of checks', () => {
      test('an unknown route is a 404 before authentication', async () => {
        assert.equal((await fx.api.request('GET', '/gardens')).status, 404)
      })

      test('a wrong method on a known path is a 405 before authentication', async () => {
        assert.equal((await fx.api.request('PUT', '/plants/1')).status, 405)
      })

      test('an invalid body without a token is a 401, not a 400', async () => {
        assert.equal((await fx.api.request('POST', '/plants', { json: '{"id":' })).status, 401)
      })

      test('an invalid body from a reader is a 403, not a 400', async () => {
        const reader = await fx.token('order-reader', '--scope', 'plants:read')
        assert.equal((await fx.api.request('POST', '/plants', { token: reader, json: '{"id":' })).status, 403)
      })

      test('a bad id from a writer is a 400 before the store is asked', async () => {
        assert.equal((await fx.api.request('DELETE', '/plants/abc', { token: writer })).status, 400)
      })
    })

    test('a token in the query string is masked in the log however its name is encoded', async () => {
      for (const name of ['access%5Ftoken', 'ACCESS%5fTOKEN', '%61ccess_token', 'access_%74oken']) {
        const secret = `pst_querysecret${name.replace(/%/g, '')}`
        await fx.api.request('GET', `/plants?limit=1&${name}=${secret}`)
        assert.ok(!fx.logs().includes(secret), `${name}= was logged unmasked`)
      }
    })

    test('no token appears in the service log', async () => {
      const log = fx.logs()
      assert.ok(log.length > 0)
      for (const token of [writer, revoked, expired, fx.adminToken]) assert.ok(!log.includes(token))
      assert.ok(!log.includes('pst_'))
    })

    test('token list shows id, subject, scopes, created, expires and revoked, never a token', async () => {
      const listed = await fx.tokenCli('list')
      assert.equal(listed.code, 0)
      assert.ok(!listed.stdout.includes('pst_'))
      const revokedLine = listed.stdout.split('\n').find((line) => line.includes('revoked-user'))
      assert.match(revokedLine ?? '', /^[0-9]+\trevoked-user\tplants:read,plants:write\t\S+Z\tnever\t\S+Z/)
      const adminLine = listed.stdout.split('\n')[0]
      assert.match(adminLine ?? '', /^1\tadmin\tplants:read,plants:write,plants:admin,webhooks:manage\t/)
    })
  })
}

for (const kind of STORE_KINDS) {
  describe(`the first-start token on ${kind}`, () => {
    test('is printed once on the first start, with how to make more, and never on a later start', async () => {
      const fx = await startFixture(kind)
      assert.match(fx.service.stderr(), /token create/)
      assert.equal((await fx.api.request('GET', '/plants', { token: fx.adminToken })).status, 200)
      await fx.service.stop()
      const again = await startService({ DATABASE_URL: fx.db.url })
      try {
        assert.doesNotMatch(again.stderr(), /pst_/)
      } finally {
        await again.stop()
        await fx.db.drop()
      }
    })
  })
}

for (const kind of STORE_KINDS) {
  describe(`revocation on ${kind}`, () => {
    test(`a token in use stops working within ${TOKEN_CACHE_MS} ms of its revocation`, async () => {
      const fx = await startFixture(kind)
      try {
        const token = await fx.token('soon-revoked')
        assert.equal((await fx.api.request('GET', '/plants', { token })).status, 200)
        const listed = await runCli(['token', 'list'], { DATABASE_URL: fx.db.url })
        const id = listed.stdout
          .split('\n')
          .find((line) => line.split('\t')[1] === 'soon-revoked')
          ?.split('\t')[0]
        assert.equal((await runCli(['token', 'revoke', id as string], { DATABASE_URL: fx.db.url })).code, 0)
        const revokedAt = Date.now()
        let status = 200
        while (status === 200 && Date.now() - revokedAt < TOKEN_CACHE_MS + 1000) {
          status = (await fx.api.request('GET', '/plants', { token })).status
          if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50))
        }
        const took = Date.now() - revokedAt
        assert.equal(status, 401)
        assert.ok(took <= TOKEN_CACHE_MS + 200, `revocation took effect after ${took} ms`)
      } finally {
        await fx.close()
      }
    })
  })
}
