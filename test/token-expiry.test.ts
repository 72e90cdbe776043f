import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { STORE_KINDS } from '../support/databases.js'
import { buildFixture } from './helpers/in-process.js'

// A token's expiry is whole seconds and never sooner than asked: --expires-in 1s lives at least 1 s.

for (const kind of STORE_KINDS) {
  describe(`token create --expires-in on ${kind}`, () => {
    test('10 tokens of --expires-in 1s each expire on a whole second, at least 1000 ms after their creation', async () => {
      const fx = await buildFixture(kind)
      try {
        for (let round = 0; round < 10; round++) {
          const made = await fx.tokenCli('create', '--subject', `short-${round}`, '--expires-in', '1s')
          assert.equal(made.code, 0, made.stderr)
        }
        const listed = await fx.tokenCli('list', '--json')
        const tokens = (JSON.parse(listed.stdout) as { subject: string; createdAt: string; expiresAt: string | null }[]).filter((token) =>
          token.subject.startsWith('short-'),
        )
        assert.equal(tokens.length, 10)
        for (const token of tokens) {
          const lives = Date.parse(token.expiresAt as string) - Date.parse(token.createdAt)
          assert.ok(lives >= 1000, `${token.createdAt} to ${token.expiresAt}: ${lives} ms`)
          assert.equal(Date.parse(token.expiresAt as string) % 1000, 0, `${token.expiresAt} is a whole second`)
        }
      } finally {
        await fx.close()
      }
    })
  })
}
