import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { gzipSync } from 'node:zlib'
import { CONSOLE_ROOT } from '../src/routes/console.js'
import { withFixture } from './helpers/in-process.js'

// CONTRACT section 20: how the service serves the console (the browser tests drive it).

const ASSET_BUDGET_BYTES = 150 * 1024
const assets = readdirSync(CONSOLE_ROOT)

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: string | null): Map<string, string[]> {
  return new Map(
    (header ?? '')
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0] !== '')
      .map(([name, ...values]) => [name as string, values]),
  )
}

test('GET /console and each of its files carry a CSP: scripts from itself only, no unsafe-inline or unsafe-eval, no framing', async () => {
  await withFixture({}, async (fx) => {
    for (const path of ['/console', '/console/', ...assets.map((file) => `/console/${file}`)]) {
      const answer = await fx.api.request('GET', path)
      assert.equal(answer.status, 200, path)
      const policy = directives(answer.headers.get('content-security-policy'))
      assert.deepEqual(policy.get('script-src'), ["'self'"], path)
      assert.deepEqual(policy.get('frame-ancestors'), ["'none'"], path)
      assert.deepEqual(policy.get('connect-src'), ["'self'"], path)
      assert.deepEqual(policy.get('default-src'), ["'none'"], path)
      assert.ok(![...policy.values()].flat().some((value) => /unsafe-inline|unsafe-eval/.test(value)), path)
    }
    const page = await fx.api.request('GET', '/console')
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/)
  })
})

test('the console has no inline script or style, and loads nothing from another origin', () => {
  for (const file of assets) {
    const text = readFileSync(join(CONSOLE_ROOT, file), 'utf8')
    if (file.endsWith('.html')) {
      assert.doesNotMatch(text, /<script(?![^>]*\bsrc=)[^>]*>/, `${file}: every script has a src`)
      assert.doesNotMatch(text, /<style|\sstyle=|\son[a-z]+=/i, `${file}: no inline style or handler`)
    }
    assert.doesNotMatch(text, /(src|href)=["']?(https?:)?\/\//, `${file}: nothing from another origin`)
    assert.doesNotMatch(text, /innerHTML|eval\(|new Function/, `${file}: no markup from text, no eval`)
  }
})

test(`the console's files total at most ${ASSET_BUDGET_BYTES / 1024} KB compressed`, () => {
  const total = assets.reduce((sum, file) => sum + gzipSync(readFileSync(join(CONSOLE_ROOT, file))).length, 0)
  assert.ok(total <= ASSET_BUDGET_BYTES, `${total} bytes compressed`)
})

test('with CONSOLE=false, /console and its files are 404 with the Error body, like any unknown path', async () => {
  await withFixture({ CONSOLE: 'false' }, async (fx) => {
    for (const path of ['/console', '/console/', '/console/main.js']) {
      const answer = await fx.api.request('GET', path)
      assert.equal(answer.status, 404, path)
      assert.equal(answer.headers.get('content-security-policy'), null)
    }
  })
})

test('a missing file under /console/ is a 404 with the Error body and the same CSP as the console', async () => {
  await withFixture({}, async (fx) => {
    for (const path of ['/console/missing.js', '/console/deep/er/file.css', '/console/..%2Fsrc']) {
      const answer = await fx.api.request('GET', path)
      assert.equal(answer.status, 404, path)
      assert.deepEqual(answer.body, { error: 404, message: `no route for GET ${path}` }, path)
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/, path)
      const policy = directives(answer.headers.get('content-security-policy'))
      assert.deepEqual(policy.get('default-src'), ["'none'"], path)
      assert.deepEqual(policy.get('frame-ancestors'), ["'none'"], path)
      assert.equal(answer.headers.get('referrer-policy'), 'no-referrer', path)
    }
    const elsewhere = await fx.api.request('GET', '/nowhere')
    assert.equal(elsewhere.headers.get('content-security-policy'), null, 'outside /console/ a 404 is as before')
  })
})

test('the console changes nothing of the API: a missing console file, /plants and /webhooks answer JSON as before', async () => {
  await withFixture({}, async (fx) => {
    assert.equal((await fx.api.request('GET', '/console/missing.js')).status, 404)
    assert.equal((await fx.api.request('GET', '/plants/1/2')).status, 404)
    const plants = await fx.api.request('GET', '/plants')
    assert.equal(plants.status, 401)
    assert.equal(plants.headers.get('content-security-policy'), null)
    assert.equal((await fx.api.request('GET', '/webhooks', { token: fx.adminToken })).headers.get('content-security-policy'), null)
    const wrong = await fx.api.request('POST', '/console')
    assert.equal(wrong.status, 405)
  })
})
