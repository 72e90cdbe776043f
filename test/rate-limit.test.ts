import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'
import { STORE_KINDS } from '../support/databases.js'
import { REPO_ROOT } from '../support/service.js'

for (const kind of STORE_KINDS) {
  describe(`RATE_LIMIT=5 on ${kind}`, () => {
    let fx: ServiceFixture
    before(async () => {
      fx = await startFixture(kind, { RATE_LIMIT: '5' })
    })
    after(() => fx.close())

    test('the sixth request of a token in a minute is a 429 with Retry-After; another token is unaffected', async () => {
      const [first, second] = await Promise.all([fx.token('limited'), fx.token('other')])
      for (let i = 0; i < 5; i++) assert.equal((await fx.api.request('GET', '/plants', { token: first })).status, 200)
      const limited = await fx.api.request('GET', '/plants', { token: first })
      assert.equal(limited.status, 429)
      const retryAfter = Number(limited.headers.get('retry-after'))
      assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 60, `Retry-After: ${retryAfter}`)
      assert.equal((await fx.api.request('GET', '/plants', { token: second })).status, 200)
    })

    test('requests without a valid token are limited per client address, before authentication', async () => {
      const statuses = []
      for (let i = 0; i < 6; i++) {
        statuses.push((await fx.api.request('GET', '/plants', { token: `pst_guess${i}` })).status)
      }
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429])
    })

    test('/plants and /webhooks share one budget per token, as the README says', async () => {
      const token = await fx.token('both', '--scope', 'plants:read,webhooks:manage')
      const statuses = []
      for (const path of ['/plants', '/webhooks', '/plants', '/webhooks', '/plants', '/webhooks']) {
        statuses.push((await fx.api.request('GET', path, { token })).status)
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429])
      const row = /^\| `RATE_LIMIT` \|.*$/m.exec(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'))?.[0] ?? ''
      assert.match(row, /`\/plants` and `\/webhooks`/, row)
    })

    test('the operations endpoints are not limited', async () => {
      for (let i = 0; i < 8; i++) assert.equal((await fx.api.request('GET', '/healthz')).status, 200)
    })
  })
}
