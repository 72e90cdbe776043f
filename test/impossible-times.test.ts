import assert from 'node:assert/strict'
import { test } from 'node:test'
import { withFixture } from './helpers/in-process.js'

const ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }

// JavaScript's Date.parse rolls these over to another day; RFC 3339 says they name no instant.
const IMPOSSIBLE = [
  '2026-02-30T00:00:00Z',
  '2026-02-29T00:00:00Z',
  '2026-04-31T12:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-01-01T10:00:00+24:00',
]

test('recover refuses a since that names no instant (February 30th, April 31st, hour 24) with a 400 naming since', async () => {
  await withFixture(ENV, async (fx) => {
    const token = await fx.token('recoverer', '--scope', 'webhooks:manage')
    const made = await fx.api.request<{ id: string }>('POST', '/webhooks', { token, json: { url: 'http://127.0.0.1:9/hook' } })
    assert.equal(made.status, 201, made.text)
    for (const since of IMPOSSIBLE) {
      const answer = await fx.api.request<{ message: string }>('POST', `/webhooks/${made.body.id}/recover`, { token, json: { since } })
      assert.equal(answer.status, 400, `${since}: ${answer.text}`)
      assert.match(answer.body.message, /since/)
    }
    const leapDay = await fx.api.request<{ requeued: number }>('POST', `/webhooks/${made.body.id}/recover`, {
      token,
      json: { since: '2028-02-29T23:59:59+01:00' },
    })
    assert.equal(leapDay.status, 202, leapDay.text)
    assert.equal(leapDay.body.requeued, 0)
  })
})
