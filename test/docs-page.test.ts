import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { type Browser, type Page, chromium } from 'playwright-core'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'

/** Debian's Chromium; `.ci/run` installs it. Never a downloaded browser. */
const CHROMIUM = '/usr/bin/chromium'
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
const missing = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium)`
if (missing && process.env.CI === 'true') throw new Error(`the docs page test needs a browser under CI: ${missing}`)

const BIG_ID = '9007199254740993'

describe('the /docs page in a real browser', { skip: missing }, () => {
  let fx: ServiceFixture
  let browser: Browser
  let page: Page
  const outside: string[] = []

  before(async () => {
    fx = await startFixture('sqlite')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS })
    page = await browser.newPage()
    // Anything not served by the service is recorded and refused, so the page cannot reach out.
    await page.route('**/*', (route) => {
      const url = route.request().url()
      if (url.startsWith(`${fx.service.url}/`) || url.startsWith('data:')) return route.continue()
      outside.push(url)
      return route.abort()
    })
    await page.goto(`${fx.service.url}/docs`)
    await page.locator('.opblock').first().waitFor()
  })
  after(async () => {
    await browser?.close()
    await fx?.close()
  })

  test('lists every operation of the document, and the newPlant, plantDeleted, plantUpdated and ping webhooks', async () => {
    const shown = await page.locator('.opblock-summary').evaluateAll((blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent ?? ''
        const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? ''
        return `${method} ${path}`
      }),
    )
    assert.deepEqual(shown.sort(), [
      'DELETE /plants/{id}',
      'DELETE /webhooks/{id}',
      'GET /healthz',
      'GET /metrics',
      'GET /plants',
      'GET /plants/{id}',
      'GET /readyz',
      'GET /webhooks',
      'GET /webhooks/{id}',
      'GET /webhooks/{id}/deliveries',
      'PATCH /plants/{id}',
      'PATCH /webhooks/{id}',
      'POST /plants',
      'POST /webhooks',
      'POST /webhooks/{id}/deliveries/{webhookId}/redeliver',
      'POST /webhooks/{id}/ping',
      'POST /webhooks/{id}/recover',
      'POST /webhooks/{id}/rotate-secret',
      'POST newPlant',
      'POST ping',
      'POST plantDeleted',
      'POST plantUpdated',
    ])
  })

  test("the page is Plant Store's: its title, no Swagger or Fastify bar, and no address but /openapi.json", async () => {
    assert.equal(await page.title(), 'Plant Store API')
    assert.equal(await page.locator('.topbar').count(), 0)
    const text = await page.locator('body').innerText()
    assert.ok(text.includes('/openapi.json'), 'the description names /openapi.json')
    assert.ok(!text.includes('/docs/json'), 'the page shows no /docs/json')
  })

  test(`"Try it out" creates a plant with id ${BIG_ID} that is then found under that exact id`, async () => {
    await page.getByRole('button', { name: 'Authorize' }).first().click()
    await page.locator('.modal-ux input[type=text]').fill(fx.adminToken)
    await page.locator('.modal-ux').getByRole('button', { name: 'Apply credentials' }).click()
    await page.locator('.modal-ux').getByRole('button', { name: 'Close' }).click()

    const create = page.locator('#operations-plants-createPlant')
    await create.locator('.opblock-summary').click()
    await create.getByRole('button', { name: 'Try it out' }).click()
    await create.locator('textarea.body-param__text').fill(`{"id": ${BIG_ID}, "name": "from the browser"}`)
    const created = page.waitForResponse((response) => response.request().method() === 'POST')
    await create.getByRole('button', { name: 'Execute' }).click()
    const createAnswer = await created
    assert.equal(createAnswer.status(), 200, await createAnswer.text())
    assert.equal(createAnswer.headers().location, `/plants/${BIG_ID}`)

    const get = page.locator('#operations-plants-getPlant')
    await get.locator('.opblock-summary').click()
    await get.getByRole('button', { name: 'Try it out' }).click()
    await get.locator('input[placeholder=id]').fill(BIG_ID)
    const found = page.waitForResponse((response) => response.url().endsWith(`/plants/${BIG_ID}`))
    await get.getByRole('button', { name: 'Execute' }).click()
    const foundAnswer = await found
    assert.equal(foundAnswer.status(), 200)
    assert.deepEqual(await foundAnswer.json(), { name: 'from the browser' })
    await get.locator('.live-responses-table .response-col_status').filter({ hasText: '200' }).first().waitFor()

    // Checked behind the page too: the plant is there under its exact id, and its float neighbour is not.
    assert.equal((await fx.api.request('GET', `/plants/${BIG_ID}`, { token: fx.adminToken })).status, 200)
    assert.equal((await fx.api.request('GET', `/plants/${BigInt(BIG_ID) - 1n}`, { token: fx.adminToken })).status, 404)
  })

  test('the page loaded nothing from outside the service', () => {
    assert.deepEqual(outside, [])
  })
})
