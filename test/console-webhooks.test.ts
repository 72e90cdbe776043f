import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { STORE_KINDS } from '../support/databases.js'
import { type Received, Receiver } from '../support/receiver.js'
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

// CONTRACT section 20 in a real browser: the webhooks view (subscribe, change, rotate, ping,
// unsubscribe) and the deliveries log (filters, find, a delivery's own address, redeliver,
// recover) against a real receiver, on both stores.

/** West of UTC: a time typed as UTC but read in the browser's zone would be 5 hours late. */
const BROWSER_ZONE = 'America/New_York'

const WEBHOOK_ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_DELAYS: '100ms', WEBHOOK_TIMEOUT_MS: '2000' }

const verified = (secret: string, request: Received) =>
  new Webhook(secret.slice('whsec_'.length)).verify(request.body, request.headers as Record<string, string>)

describe('the console, webhooks, in a real browser', { skip: browserMissing }, () => {
  let browser: ConsoleBrowser
  const services: ServiceFixture[] = []
  before(async () => {
    browser = await openBrowser(() => services.map((fx) => fx.service.url), BROWSER_ZONE)
  })
  after(async () => {
    await browser?.close()
  })

  for (const kind of STORE_KINDS) {
    describe(`on ${kind}`, () => {
      let fx: ServiceFixture
      let receiver: Receiver
      let page: Page
      let secret = ''
      let subscriptionId = ''
      let failedId = ''
      before(async () => {
        fx = await startFixture(kind, WEBHOOK_ENV)
        services.push(fx)
        receiver = await Receiver.start()
        receiver.answer = (request) => ({ status: request.path === '/down' ? 503 : 200 })
        await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: fx.service.url })
        page = await browser.newPage()
        await page.goto(`${fx.service.url}/console#/webhooks`)
        await signIn(page, fx.adminToken, 'Webhooks')
      })
      after(async () => {
        try {
          await closePage(page, `the ${kind} tab`)
        } finally {
          await receiver?.close()
          await fx?.close()
        }
      })

      const status = () => page.getByRole('status').first()
      const row = (url: string) => page.getByRole('region', { name: 'Subscriptions' }).locator('tr', { hasText: url })

      test('subscribing shows the secret once, with a button that copies it; the secret verifies the deliveries', async () => {
        await assertAccessible(page, 'the webhooks view')
        await page.getByLabel('URL').fill(receiver.url('/ok'))
        await page.getByLabel('plantDeleted').check()
        await page.getByRole('button', { name: 'Subscribe' }).click()
        await status()
          .getByText(`${receiver.url('/ok')} is subscribed.`)
          .waitFor()
        secret = await page.getByLabel('Secret', { exact: true }).inputValue()
        assert.match(secret, /^whsec_/)
        await page.getByRole('button', { name: 'Copy secret' }).click()
        await page.getByText('Copied.').waitFor()
        assert.equal(await page.evaluate('navigator.clipboard.readText()'), secret)
        await assertAccessible(page, 'the webhooks view with a new secret')

        const listed = (await fx.api.request('GET', '/webhooks', { token: fx.adminToken })).body as { id: string; events: string[] }[]
        assert.deepEqual(listed[0]?.events, ['newPlant', 'plantDeleted'])
        subscriptionId = listed[0]?.id ?? ''
        assert.ok(!JSON.stringify(listed).includes(secret))

        assert.equal((await fx.api.createPlant(fx.adminToken, { id: 1, name: 'announced' })).status, 200)
        const [delivery] = await receiver.until((received) => received.length >= 1)
        assert.deepEqual(verified(secret, delivery as Received), { id: 1, name: 'announced' })
        await page.reload()
        await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor()
        assert.equal(await page.getByLabel('Secret', { exact: true }).count(), 0, 'the secret is not shown again')
      })

      test('ping reaches the receiver; rotating shows a new secret that signs beside the old one', async () => {
        await row(receiver.url('/ok')).getByRole('button', { name: /^Ping/ }).click()
        await status()
          .getByText(/^Ping sent/)
          .waitFor()
        await receiver.until((received) => received.some((request) => request.headers['plantstore-event'] === 'ping'))

        await row(receiver.url('/ok'))
          .getByRole('button', { name: /^Rotate secret/ })
          .click()
        await page.getByRole('dialog', { name: 'Rotate the secret?' }).getByRole('button', { name: 'Rotate secret' }).click()
        await status().getByText('The secret was rotated.').waitFor()
        const rotated = await page.getByLabel('Secret', { exact: true }).inputValue()
        assert.notEqual(rotated, secret)
        const before = receiver.received.length
        assert.equal((await fx.api.createPlant(fx.adminToken, { id: 2, name: 'after rotation' })).status, 200)
        const received = await receiver.until((all) => all.length > before)
        const latest = received.at(-1) as Received
        assert.equal(String(latest.headers['webhook-signature']).split(' ').length, 2)
        assert.deepEqual(verified(rotated, latest), { id: 2, name: 'after rotation' })
        assert.deepEqual(verified(secret, latest), { id: 2, name: 'after rotation' })
      })

      test('changing url, events and enabled is shown in the list and kept by the API', async () => {
        await row(receiver.url('/ok'))
          .getByRole('button', { name: /^Change/ })
          .click()
        const dialog = page.getByRole('dialog')
        await dialog.getByLabel('URL').fill(receiver.url('/down'))
        await dialog.getByLabel('plantUpdated').check()
        await dialog.getByLabel('Enabled').uncheck()
        await assertAccessible(page, 'the change subscription dialog')
        await dialog.getByRole('button', { name: 'Save' }).click()
        await row(receiver.url('/down')).getByText('disabled').waitFor()
        const kept = (await fx.api.request('GET', `/webhooks/${subscriptionId}`, { token: fx.adminToken })).body
        assert.deepEqual(kept, {
          ...(kept as object),
          url: receiver.url('/down'),
          events: ['newPlant', 'plantDeleted', 'plantUpdated'],
          enabled: false,
        })

        await row(receiver.url('/down'))
          .getByRole('button', { name: /^Change/ })
          .click()
        await page.getByRole('dialog').getByLabel('Enabled').check()
        await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
        await row(receiver.url('/down')).getByRole('cell', { name: 'enabled', exact: true }).waitFor()
      })

      test('the deliveries log: newest first, filtered by state and event type, each with its attempts and last status', async () => {
        for (const id of [3, 4]) assert.equal((await fx.api.createPlant(fx.adminToken, { id, name: `failing ${id}` })).status, 200)
        assert.equal((await fx.api.request('DELETE', '/plants/3', { token: fx.adminToken })).status, 204)
        const log = async () =>
          (await fx.api.request('GET', `/webhooks/${subscriptionId}/deliveries`, { token: fx.adminToken })).body as {
            id: string
            state: string
            event: string
          }[]
        for (let tries = 0; (await log()).filter((entry) => entry.state === 'failed').length < 3; tries++) {
          assert.ok(tries < 100, 'three events fail within 10 s')
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
        failedId = (await log()).find((entry) => entry.event === 'newPlant' && entry.state === 'failed')?.id ?? ''

        await row(receiver.url('/down'))
          .getByRole('link', { name: /^Deliveries/ })
          .click()
        await page.getByRole('heading', { level: 1, name: `Deliveries of ${receiver.url('/down')}` }).waitFor()
        const table = page.getByRole('region', { name: 'Deliveries, newest first' })
        await table.locator('tbody tr').first().waitFor()
        const shownIds = await table.locator('tbody tr td:first-child').allInnerTexts()
        assert.deepEqual(
          shownIds,
          (await log()).map((entry) => entry.id),
          'the same events as the API, newest first',
        )
        await assertAccessible(page, 'the deliveries log')

        await page.getByLabel('State').selectOption('failed')
        await page.getByLabel('Event type').selectOption('plantDeleted')
        await page.getByRole('button', { name: 'Filter' }).click()
        const filtered = await table.locator('tbody tr').allInnerTexts()
        assert.equal(filtered.length, 1)
        assert.match(filtered[0] as string, /plantDeleted\s+3\s+failed\s+2\s+503/)
        await page.getByLabel('Event type').selectOption('')
        await page.getByRole('button', { name: 'Filter' }).click()
        assert.equal(await table.locator('tbody tr').count(), 3)

        await page.setViewportSize({ width: 360, height: 740 })
        try {
          await assertFitsWidth(page, 'the deliveries log at 360 px')
          await assertAccessible(page, 'the deliveries log at 360 px')
        } finally {
          await page.setViewportSize({ width: 1280, height: 900 })
        }
      })

      test('a delivery found by its webhook-id has its own address, holding no token, that opens after signing in', async () => {
        await page.getByLabel('Webhook id').fill(failedId)
        await page.getByRole('button', { name: 'Find' }).click()
        await page.getByRole('heading', { level: 1, name: `Delivery ${failedId}` }).waitFor()
        const address = page.url()
        assert.ok(address.endsWith(`#/webhooks/${subscriptionId}/deliveries/${failedId}`), address)
        assert.ok(!address.includes(fx.adminToken))
        await page.getByText('failed', { exact: true }).waitFor()
        await assertAccessible(page, 'a delivery')

        const shared = await browser.newPage()
        try {
          await shared.goto(address)
          assert.deepEqual((await storageOf(shared)).session, [], 'a new tab has no token')
          await signIn(shared, fx.adminToken, `Delivery ${failedId}`)
          await shared.getByText('503', { exact: true }).waitFor()
        } finally {
          await closePage(shared, 'the tab opened at the shared address')
        }
      })

      test('redeliver sends the same webhook-id again; recover requeues the failed events since a time', async () => {
        receiver.answer = () => ({ status: 200 })
        await page.getByRole('button', { name: 'Redeliver' }).click()
        await status().getByText('Redelivery queued').waitFor()
        await receiver.until((received) =>
          received.some(
            (request) =>
              request.path === '/down' &&
              request.headers['webhook-id'] === failedId &&
              request.headers['plantstore-event'] === 'newPlant' &&
              request.body.includes('"failing'),
          ),
        )
        // The service records the outcome after the receiver's answer: the page is reloaded once it has.
        const stateOf = async () =>
          (
            (await fx.api.request('GET', `/webhooks/${subscriptionId}/deliveries`, { token: fx.adminToken })).body as {
              id: string
              state: string
            }[]
          ).find((entry) => entry.id === failedId)?.state
        for (let tries = 0; (await stateOf()) !== 'delivered'; tries++) {
          assert.ok(tries < 100, 'the redelivery is recorded as delivered within 10 s')
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
        await page.reload()
        await page.getByText('delivered', { exact: true }).waitFor({ timeout: 10_000 })

        await page.getByRole('link', { name: 'The deliveries log' }).click()
        // The oldest failed event's time, typed as the log shows it (UTC) in a browser west of UTC.
        const log = (await fx.api.request('GET', `/webhooks/${subscriptionId}/deliveries`, { token: fx.adminToken })).body as {
          state: string
          createdAt: string
        }[]
        const oldest = log.filter((entry) => entry.state === 'failed').at(-1)?.createdAt ?? ''
        const typed = oldest.slice(0, 'YYYY-MM-DDTHH:MM:SS'.length)
        await page
          .getByRole('region', { name: 'Deliveries, newest first' })
          .getByText(`${typed.replace('T', ' ')} UTC`)
          .first()
          .waitFor()
        await page.getByLabel('Failed since (UTC)').fill(typed)
        const sent = page.waitForRequest((request) => request.url().endsWith('/recover'))
        await page.getByRole('button', { name: 'Recover failed events' }).click()
        assert.deepEqual((await sent).postDataJSON(), { since: `${typed}.000Z` })
        await status().getByText('2 failed events are due again.').waitFor()
        await receiver.until((received) => received.filter((request) => request.path === '/down').length >= 8)
      })

      test('a log of exactly one page: Load older says that there is nothing older, and is then no longer offered', async () => {
        const made = await fx.api.request('POST', '/webhooks', {
          token: fx.adminToken,
          json: { url: receiver.url('/page'), events: ['newPlant'] },
        })
        assert.equal(made.status, 201)
        const pageId = (made.body as { id: string }).id
        for (let id = 100; id < 150; id++) assert.equal((await fx.api.createPlant(fx.adminToken, { id, name: `plant ${id}` })).status, 200)
        const logged = (await fx.api.request('GET', `/webhooks/${pageId}/deliveries?limit=250`, { token: fx.adminToken })).body as unknown[]
        assert.equal(logged.length, 50, 'exactly one page of 50')
        await page.evaluate(`location.hash = '#/webhooks/${pageId}'`)
        await page.getByRole('heading', { level: 1, name: `Deliveries of ${receiver.url('/page')}` }).waitFor()
        const rows = page.getByRole('region', { name: 'Deliveries, newest first' }).locator('tbody tr')
        await rows.nth(49).waitFor()
        await page.getByRole('button', { name: 'Load older' }).click()
        await status().getByText('No older deliveries: this is the whole log.').waitFor()
        assert.equal(await rows.count(), 50)
        assert.equal(await page.getByRole('button', { name: 'Load older' }).isDisabled(), true)
        assert.equal((await fx.api.request('DELETE', `/webhooks/${pageId}`, { token: fx.adminToken })).status, 204)
      })

      test('a delivery that is not in the log offers no Redeliver', async () => {
        await page.evaluate(`location.hash = '#/webhooks/${subscriptionId}/deliveries/msg_not_there'`)
        await page.getByRole('heading', { level: 1, name: 'Delivery msg_not_there' }).waitFor()
        await status().getByText("No delivery msg_not_there in this subscription's log.").waitFor()
        assert.equal(await page.getByRole('button', { name: 'Redeliver' }).count(), 0)
        await assertAccessible(page, 'a delivery that is not there')
        await page.getByRole('link', { name: 'The deliveries log' }).click()
        await page.getByRole('heading', { level: 1, name: /^Deliveries of / }).waitFor()
      })

      test('unsubscribing asks first, then the subscription is gone', async () => {
        await page.getByRole('link', { name: 'All webhooks' }).click()
        await row(receiver.url('/down'))
          .getByRole('button', { name: /^Unsubscribe/ })
          .click()
        await assertAccessible(page, 'the unsubscribe confirmation')
        await page.getByRole('dialog', { name: 'Unsubscribe?' }).getByRole('button', { name: 'Unsubscribe' }).click()
        await status()
          .getByText(`${receiver.url('/down')} was unsubscribed.`)
          .waitFor()
        assert.equal((await fx.api.request('GET', `/webhooks/${subscriptionId}`, { token: fx.adminToken })).status, 404)
        await signOut(page)
      })
    })
  }

  test('no page asked for anything outside the service, and no Content-Security-Policy violation was reported', () => {
    assert.deepEqual(browser.outside, [])
    assert.deepEqual(browser.violations, [])
  })
})
