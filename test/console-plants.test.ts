import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Page, Request, Route } from 'playwright-core'
import { TOKEN_CACHE_MS } from '../src/auth/opaque-tokens.js'
import { STORE_KINDS } from '../support/databases.js'
import {
  type ConsoleBrowser,
  assertAccessible,
  assertFitsWidth,
  browserMissing,
  closePage,
  openBrowser,
  signIn,
  signOut,
  storageOf,
} from './helpers/browser.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'
import { within } from './helpers/within.js'

// CONTRACT section 20 in a real browser: signing in and out, and the plants view (list, paging,
// tag filter, create, change with the ETag, delete after a confirmation) on both stores.

const BIG_ID = '9007199254740993'
const LOWEST = '-9223372036854775808'

/**
 * Holds the page's requests to `url` until `release()`: an answer that comes late, after the
 * person moved on. `late()` settles once such a request was answered or given up by the page.
 * `stop()` (in a `finally`) lets every held request go and waits until its handler is done: a
 * request left paused in its handler outlives the test, and closing the page can wait on it.
 */
async function holdRequests(page: Page, url: RegExp): Promise<{ release(): void; late(): Promise<void>; stop(): Promise<void> }> {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  let settled = () => {}
  const late = new Promise<void>((resolve) => (settled = resolve))
  const done = (request: Request) => {
    if (url.test(request.url())) settled()
  }
  page.on('requestfinished', done)
  page.on('requestfailed', done)
  const handler = async (route: Route) => {
    await held
    // The page may have aborted it meanwhile: then there is nothing to continue.
    await route.continue().catch(() => {})
  }
  await page.route(url, handler)
  const stop = async () => {
    release()
    page.off('requestfinished', done)
    page.off('requestfailed', done)
    await within('letting the held requests go', page.unrouteAll({ behavior: 'wait' }))
  }
  return { release, late: () => within(`the held request to ${String(url)} settling`, late), stop }
}

describe('the console, plants, in a real browser', { skip: browserMissing }, () => {
  let browser: ConsoleBrowser
  const services: ServiceFixture[] = []
  before(async () => {
    browser = await openBrowser(() => services.map((fx) => fx.service.url))
  })
  after(async () => {
    await browser?.close()
  })

  for (const kind of STORE_KINDS) {
    describe(`on ${kind}`, () => {
      let fx: ServiceFixture
      let page: Page
      let gardener: string
      before(async () => {
        fx = await startFixture(kind)
        services.push(fx)
        gardener = await fx.token('gardener')
        for (let id = 1; id <= 12; id++) {
          const answer = await fx.api.createPlant(gardener, { id, name: `plant ${id}`, ...(id % 3 === 0 ? { tag: 'shade' } : {}) })
          assert.equal(answer.status, 200)
        }
        page = await browser.newPage()
        await page.goto(`${fx.service.url}/console`)
      })
      after(async () => {
        try {
          await closePage(page, `the ${kind} tab`)
        } finally {
          await fx?.close()
        }
      })

      const rows = () => page.getByRole('region', { name: 'Plants' }).locator('tbody tr')
      const idsShown = async () => (await rows().locator('td:first-child').allInnerTexts()).map((text) => text.trim())
      const status = () => page.getByRole('status').first()
      /** Waits (in this process: the page's CSP refuses evaluated strings) until the ids shown are these. */
      const shown = async (ids: string[]) => {
        for (let tries = 0; JSON.stringify(await idsShown()) !== JSON.stringify(ids); tries++) {
          assert.ok(tries < 200, `the page shows ${JSON.stringify(await idsShown())}, not ${JSON.stringify(ids)}`)
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      }
      /** Time for a late answer, once arrived, to render if the page would let it. */
      const settle = () => new Promise((resolve) => setTimeout(resolve, 300))
      const firstTen = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']
      /** Waits until the focus is on an element with this role (never lost to the body). */
      const focusedOn = async (role: string) => {
        const now = () => page.evaluate("document.activeElement?.getAttribute('role') ?? document.activeElement?.tagName")
        for (let tries = 0; (await now()) !== role; tries++) {
          assert.ok(tries < 100, `the focus is on ${String(await now())}, not on the ${role}`)
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      }

      test('signed out: a form with a field labelled Token and a button Sign in, accessible', async () => {
        await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
        assert.equal(await page.getByLabel('Token').count(), 1)
        assert.equal(await page.getByRole('button', { name: 'Sign in' }).count(), 1)
        await assertAccessible(page, 'the sign-in view')
      })

      test("a bad token is refused with the service's own message, and nothing is kept", async () => {
        const answer = await fx.api.request('GET', '/plants?limit=0', { token: 'pst_not-a-token' })
        await page.getByLabel('Token').fill('pst_not-a-token')
        await page.getByRole('button', { name: 'Sign in' }).click()
        await page.getByText((answer.body as { message: string }).message).waitFor()
        assert.deepEqual((await storageOf(page)).session, [])
        await assertAccessible(page, 'the sign-in view with an error')
      })

      test('signing in with the keyboard alone keeps the token in sessionStorage only, and shows the plants', async () => {
        await page.getByLabel('Token').focus()
        await page.keyboard.press('Control+A')
        await page.keyboard.type(gardener)
        await page.keyboard.press('Enter')
        await page.getByRole('heading', { level: 1, name: 'Plants' }).waitFor()
        const kept = await storageOf(page)
        assert.deepEqual(kept.session, [gardener])
        assert.equal(kept.local, 0)
        assert.equal(kept.cookie, '')
        assert.ok(!kept.url.includes(gardener), 'the address holds no token')
        await shown([...firstTen, '11', '12'])
        await assertAccessible(page, 'the plants view')
      })

      test('paging follows the Link header, and the tag filter shows only that tag', async () => {
        await page.getByLabel('Plants per page').selectOption('10')
        await page.getByRole('button', { name: 'Show' }).click()
        await shown(firstTen)
        await page.getByRole('button', { name: 'Next page' }).click()
        await shown(['11', '12'])
        await focusedOn('region')
        await page.getByRole('button', { name: 'Previous page' }).click()
        await shown(firstTen)
        await focusedOn('region')
        await page.getByLabel('Tag', { exact: true }).fill('shade')
        await page.getByRole('button', { name: 'Show' }).click()
        await shown(['3', '6', '9', '12'])
        await page.getByLabel('Tag', { exact: true }).fill('')
        await page.getByRole('button', { name: 'Show' }).click()
        await shown(firstTen)
      })

      test(`creating plant ${BIG_ID} shows it under that exact id, and the API has it`, async () => {
        await page.getByLabel('Id').fill(BIG_ID)
        await page.getByLabel('Name', { exact: true }).fill('from the console')
        await page.getByLabel('Tag (optional)').fill('indoor')
        await page.getByRole('button', { name: 'Add plant' }).click()
        await status().getByText(`Plant ${BIG_ID} added.`).waitFor()
        const read = await fx.api.request('GET', `/plants/${BIG_ID}`, { token: gardener })
        assert.deepEqual([read.status, read.body], [200, { name: 'from the console', tag: 'indoor' }])
        await page.getByLabel('Id').fill('1')
        await page.getByLabel('Name', { exact: true }).fill('again')
        await page.getByRole('button', { name: 'Add plant' }).click()
        await status().getByText('plant 1 already exists').waitFor()
      })

      test('changing a plant sends the ETag it read; a 412 says someone else changed it and reloads', async () => {
        await page.getByRole('button', { name: 'Change plant 2' }).click()
        const dialog = page.getByRole('dialog', { name: 'Change plant 2' })
        await dialog.waitFor()
        await dialog.getByLabel('Name').fill('renamed in the console')
        await assertAccessible(page, 'the change dialog')
        await dialog.getByRole('button', { name: 'Save' }).click()
        await status().getByText('Plant 2 changed.').waitFor()
        await focusedOn('status')
        assert.deepEqual((await fx.api.request('GET', '/plants/2', { token: gardener })).body, { name: 'renamed in the console' })

        await page.getByRole('button', { name: 'Change plant 4' }).click()
        const stale = page.getByRole('dialog', { name: 'Change plant 4' })
        await stale.waitFor()
        const behind = await fx.api.request('PATCH', '/plants/4', { token: gardener, json: { name: 'changed behind its back' } })
        assert.equal(behind.status, 200)
        await stale.getByLabel('Name').fill('my change')
        await stale.getByRole('button', { name: 'Save' }).click()
        await stale.getByText('Someone else changed this plant').waitFor()
        assert.deepEqual((await fx.api.request('GET', '/plants/4', { token: gardener })).body, { name: 'changed behind its back' })
        await stale.getByRole('button', { name: 'Reload' }).click()
        await stale.getByText('Reloaded: this is the current version.').waitFor()
        assert.equal(await stale.getByLabel('Name').inputValue(), 'changed behind its back')
        await stale.getByLabel('Name').fill('my change, after reading theirs')
        await stale.getByRole('button', { name: 'Save' }).click()
        await status().getByText('Plant 4 changed.').waitFor()
        assert.deepEqual((await fx.api.request('GET', '/plants/4', { token: gardener })).body, { name: 'my change, after reading theirs' })
      })

      test('deleting asks first: Cancel keeps the plant; Delete, reached by keyboard, removes it', async () => {
        await page.getByRole('button', { name: 'Delete plant 5' }).click()
        await page.getByRole('dialog', { name: 'Delete plant 5?' }).getByRole('button', { name: 'Cancel' }).click()
        assert.equal((await fx.api.request('GET', '/plants/5', { token: gardener })).status, 200)

        await page.getByRole('button', { name: 'Delete plant 5' }).focus()
        await page.keyboard.press('Enter')
        const confirm = page.getByRole('dialog', { name: 'Delete plant 5?' })
        await confirm.waitFor()
        await assertAccessible(page, 'the delete confirmation')
        await page.keyboard.press('Escape')
        await confirm.waitFor({ state: 'detached' })
        assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Delete plant 5', 'focus returns to the button')
        await page.keyboard.press('Enter')
        await confirm.waitFor()
        assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Cancel', 'the dialog opens on Cancel')
        await page.keyboard.press('Enter')
        await confirm.waitFor({ state: 'detached' })
        assert.equal((await fx.api.request('GET', '/plants/5', { token: gardener })).status, 200, 'Enter alone deletes nothing')
        await page.keyboard.press('Enter')
        await confirm.waitFor()
        await page.keyboard.press('Shift+Tab')
        assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Delete')
        await page.keyboard.press('Enter')
        await status().getByText('Plant 5 deleted.').waitFor()
        await focusedOn('status')
        assert.equal((await fx.api.request('GET', '/plants/5', { token: gardener })).status, 404)
        await shown(['1', '2', '3', '4', '6', '7', '8', '9', '10', '11'])
      })

      test('at 360 px wide the plants view fits, a long name and the LOWEST id included, and stays accessible', async () => {
        const made = await fx.api.request('POST', '/plants', {
          token: gardener,
          raw: `{"id":${LOWEST},"name":"${'x'.repeat(150)}"}`,
          headers: { 'content-type': 'application/json' },
        })
        assert.equal(made.status, 200)
        await page.getByRole('button', { name: 'Show' }).click()
        const idCell = page.getByRole('cell', { name: LOWEST, exact: true })
        await idCell.waitFor()
        await page.setViewportSize({ width: 360, height: 740 })
        try {
          const lines = await page.evaluate(`(() => {
            const cell = [...document.querySelectorAll('td.id')].find((td) => td.textContent === '${LOWEST}')
            const range = document.createRange()
            range.selectNodeContents(cell)
            return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size
          })()`)
          assert.equal(lines, 1, `the id wraps over ${lines} lines`)
          await assertFitsWidth(page, 'the plants view at 360 px')
          await assertAccessible(page, 'the plants view at 360 px')
        } finally {
          await page.setViewportSize({ width: 1280, height: 900 })
        }
      })

      test('only the latest page asked for renders: a slow answer to an earlier click does not replace the newer page', async () => {
        await page.getByLabel('Tag', { exact: true }).fill('')
        await page.getByLabel('Plants per page').selectOption('10')
        await page.getByRole('button', { name: 'Show' }).click()
        const firstPage = [LOWEST, '1', '2', '3', '4', '6', '7', '8', '9', '10']
        await shown(firstPage)
        const { release, late, stop } = await holdRequests(page, /\/plants\?.*after=/)
        try {
          await page.getByRole('button', { name: 'Next page' }).click()
          await page.getByRole('button', { name: 'Show' }).click()
          await shown(firstPage)
          release()
          await late()
          await settle()
          assert.deepEqual(await idsShown(), firstPage, 'the answer for page 2, which came last, did not render')
        } finally {
          await stop()
        }
      })

      test('leaving a view before its answer came: the late answer does not render over the view navigated to', async () => {
        const other = await browser.newPage()
        try {
          await other.goto(`${fx.service.url}/console`)
          await signIn(other, fx.adminToken)
          const { release, late, stop } = await holdRequests(other, /\/webhooks\/wh_slow$/)
          try {
            await other.evaluate("location.hash = '#/webhooks/wh_slow'")
            await other.getByRole('link', { name: 'Webhooks' }).click()
            await other.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor()
            await other.getByRole('link', { name: 'Plants' }).click()
            await other.getByRole('heading', { level: 1, name: 'Plants' }).waitFor()
            release()
            await late()
            await settle()
            assert.deepEqual(await other.getByRole('heading', { level: 1 }).allInnerTexts(), ['Plants'])
          } finally {
            await stop()
          }
        } finally {
          await closePage(other, 'the second tab')
        }
      })

      test('with exactly two pages of plants, the second offers no Next page (no empty page after it)', async () => {
        const twenty = Array.from({ length: 20 }, (_, index) => 1001 + index)
        for (const id of twenty) assert.equal((await fx.api.createPlant(gardener, { id, name: `plant ${id}`, tag: 'twenty' })).status, 200)
        const ids = (from: number) => Array.from({ length: 10 }, (_, index) => String(from + index))
        const next = page.getByRole('button', { name: 'Next page' })
        try {
          await page.getByLabel('Tag', { exact: true }).fill('twenty')
          await page.getByLabel('Plants per page').selectOption('10')
          await page.getByRole('button', { name: 'Show' }).click()
          await shown(ids(1001))
          assert.equal(await next.isEnabled(), true)
          await next.click()
          await shown(ids(1011))
          assert.equal(await next.isDisabled(), true, 'nothing follows the 20th plant')
          await page.getByLabel('Plants per page').selectOption('25')
          await page.getByRole('button', { name: 'Show' }).click()
          await shown([...ids(1001), ...ids(1011)])
          assert.equal(await next.isDisabled(), true)
        } finally {
          await page.getByLabel('Tag', { exact: true }).fill('')
          for (const id of twenty) assert.equal((await fx.api.request('DELETE', `/plants/${id}`, { token: gardener })).status, 204)
        }
      })

      test('the empty tag "" can be given to a new plant and filtered for, as the API allows', async () => {
        await page.getByLabel('Id').fill('2001')
        await page.getByLabel('Name', { exact: true }).fill('tagged with nothing')
        await page.getByLabel('The empty tag ("")', { exact: true }).check()
        assert.equal(await page.getByLabel('Tag (optional)').isDisabled(), true)
        await assertAccessible(page, 'the plants view with the empty tag chosen')
        await page.getByRole('button', { name: 'Add plant' }).click()
        await status().getByText('Plant 2001 added.').waitFor()
        const read = await fx.api.request('GET', '/plants/2001', { token: gardener })
        assert.deepEqual([read.status, read.body], [200, { name: 'tagged with nothing', tag: '' }])
        assert.equal(await page.getByLabel('The empty tag ("")', { exact: true }).isChecked(), false, 'the form is cleared')
        assert.equal(await page.getByLabel('Tag (optional)').isEnabled(), true)

        await page.getByLabel('Id').fill('2002')
        await page.getByLabel('Name', { exact: true }).fill('no tag at all')
        await page.getByRole('button', { name: 'Add plant' }).click()
        await status().getByText('Plant 2002 added.').waitFor()
        assert.deepEqual((await fx.api.request('GET', '/plants/2002', { token: gardener })).body, { name: 'no tag at all' })

        await page.getByLabel('Only the empty tag ("")').check()
        await page.getByRole('button', { name: 'Show' }).click()
        await shown(['2001'])
        await page.getByLabel('Only the empty tag ("")').uncheck()
        await page.getByLabel('Plants per page').selectOption('10')
        await page.getByRole('button', { name: 'Show' }).click()
        await shown([LOWEST, '1', '2', '3', '4', '6', '7', '8', '9', '10'])
      })

      test('an id written "-0" is refused in the form, and nothing is created', async () => {
        await page.getByLabel('Id').fill('-0')
        await page.getByLabel('Name', { exact: true }).fill('negative zero')
        await page.getByRole('button', { name: 'Add plant' }).click()
        await status().getByText('The id must be a whole number').waitFor()
        assert.equal((await fx.api.request('GET', '/plants/0', { token: gardener })).status, 404)
      })

      test('a token revoked while signed in ends the session at its next request, saying why', async () => {
        const other = await browser.newPage()
        try {
          await other.goto(`${fx.service.url}/console`)
          await signIn(other, await fx.token('leaving'))
          const listed = JSON.parse((await fx.tokenCli('list', '--json')).stdout) as { id: number; subject: string }[]
          const id = listed.find((token) => token.subject === 'leaving')?.id
          assert.equal((await fx.tokenCli('revoke', String(id))).code, 0)
          // The service may trust a checked token for this long before it asks the database again.
          await new Promise((resolve) => setTimeout(resolve, TOKEN_CACHE_MS + 200))
          await other.getByRole('button', { name: 'Show' }).click()
          await other.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
          await other.getByText(/^Your session has ended: .+ Sign in again\.$/).waitFor()
          assert.deepEqual((await storageOf(other)).session, [], 'the token is forgotten')
          assert.equal(await other.getByRole('button', { name: 'Sign out' }).count(), 0)
          await assertAccessible(other, 'the sign-in view after the session ended')
        } finally {
          await closePage(other, "the revoked token's tab")
        }
      })

      test('signing out forgets the token; a read-only token is offered no create, change, delete or webhooks', async () => {
        await signOut(page)
        assert.deepEqual((await storageOf(page)).session, [])
        await page.reload()
        await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()

        await signIn(page, await fx.token('reader', '--scope', 'plants:read'))
        await rows().first().waitFor()
        assert.equal(await page.getByRole('button', { name: 'Add plant' }).count(), 0)
        assert.equal(await page.getByRole('button', { name: /^Change/ }).count(), 0)
        assert.equal(await page.getByRole('button', { name: /^Delete/ }).count(), 0)
        assert.equal(await page.getByRole('link', { name: 'Webhooks' }).count(), 0)
        await assertAccessible(page, 'the read-only plants view')
        await signOut(page)
      })

      test('a malformed address, loaded or followed, shows Nothing here', async () => {
        await signIn(page, gardener)
        await page.evaluate("location.hash = '#/webhooks/%E0'")
        await page.getByRole('heading', { level: 1, name: 'Nothing here' }).waitFor()
        await page.reload()
        await page.getByRole('heading', { level: 1, name: 'Nothing here' }).waitFor()
        assert.equal(await page.getByRole('button', { name: 'Sign out' }).count(), 1)
        await signOut(page)
      })

      test('signing in lands on the first view the token may use', async () => {
        await signIn(page, await fx.token('hooks', '--scope', 'webhooks:manage'), 'Webhooks')
        await signOut(page)
        await signIn(page, await fx.token('writer', '--scope', 'plants:write'))
        assert.equal(await page.getByRole('link', { name: 'Plants' }).count(), 1)
        assert.equal(await page.getByRole('button', { name: 'Add plant' }).count(), 1)
        assert.equal(await page.getByRole('heading', { level: 1, name: 'Nothing here' }).count(), 0)
        await assertAccessible(page, 'the write-only plants view')
        await signOut(page)
      })

      test('an admin sees every owner’s plants', async () => {
        await signIn(page, fx.adminToken)
        await page.getByRole('cell', { name: BIG_ID, exact: true }).waitFor()
        await signOut(page)
      })
    })
  }

  test('no page asked for anything outside the service, and no Content-Security-Policy violation was reported', () => {
    assert.deepEqual(browser.outside, [])
    assert.deepEqual(browser.violations, [])
  })
})
