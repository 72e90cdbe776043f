import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { BrowserContext, Page } from 'playwright-core'
import { CHROMIUM, launchChromium } from '../../support/browser.js'
import { within } from './within.js'

/** Why the browser tests cannot run here, or false; under CI a missing browser is a failure. */
export const browserMissing = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install chromium)`
if (browserMissing && process.env.CI === 'true') throw new Error(`the console tests need a browser under CI: ${browserMissing}`)

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const WCAG_21_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

export interface ConsoleBrowser {
  context: BrowserContext
  /** Addresses outside `origin` that a page asked for (each was refused). */
  outside: string[]
  /** Content-Security-Policy violations the pages reported. */
  violations: string[]
  /** A new tab (its own sessionStorage), watched for outside requests and CSP reports. */
  newPage(): Promise<Page>
  /** Closes the browser, or fails within 30 s saying so. */
  close(): Promise<void>
}

/**
 * One browser with a fresh profile, that refuses (and records) any request outside `origin`;
 * `timezoneId` sets the zone its pages live in (the machine's own otherwise).
 */
export async function openBrowser(origins: () => string[], timezoneId?: string): Promise<ConsoleBrowser> {
  const { context, close } = await launchChromium(undefined, timezoneId)
  const outside: string[] = []
  const violations: string[] = []
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (origins().some((origin) => url.startsWith(`${origin}/`))) return route.continue()
    outside.push(url)
    return route.abort()
  })
  return {
    context,
    outside,
    violations,
    async newPage() {
      const page = await context.newPage()
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text())
      })
      return page
    },
    close: () => within('closing the browser', close()),
  }
}

/** Closes a tab, or fails within 30 s naming it (`what`) rather than waiting for the test timeout. */
export async function closePage(page: Page | undefined, what: string): Promise<void> {
  if (page !== undefined) await within(`closing ${what}`, page.close())
}

interface AxeResult {
  violations: { id: string; help: string; nodes: { target: string[] }[] }[]
}

/**
 * axe-core's WCAG 2.1 A and AA rules on the page as it is now. Evaluated through the DevTools
 * protocol, which the page's CSP does not govern (an injected script tag would be refused).
 */
export async function assertAccessible(page: Page, where: string): Promise<void> {
  if (!(await page.evaluate("'axe' in window"))) await page.evaluate(AXE_SOURCE)
  const result = (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_21_A_AA)} } })`,
  )) as AxeResult
  const found = result.violations.map(
    (violation) => `${violation.id} (${violation.help}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  )
  assert.deepEqual(found, [], `axe-core on ${where}`)
}

/** The page is no wider than its viewport: nothing to scroll sideways but the tables' own regions. */
export async function assertFitsWidth(page: Page, where: string): Promise<void> {
  const widths = (await page.evaluate('({ page: document.documentElement.scrollWidth, viewport: window.innerWidth })')) as {
    page: number
    viewport: number
  }
  assert.ok(widths.page <= widths.viewport, `${where}: the page is ${widths.page} px wide in a ${widths.viewport} px viewport`)
}

/** Signs in through the form, typing as a person would, and waits for the plants view. */
export async function signIn(page: Page, token: string, landing = 'Plants'): Promise<void> {
  await page.getByLabel('Token').fill(token)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { level: 1, name: landing }).waitFor()
}

/**
 * Signs out and waits for the fresh load that signing out makes (`location.replace`): a page
 * closed while that navigation commits can keep `page.close()` waiting for ever, as Chromium
 * may acknowledge the close and then drop it.
 */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
  await page.waitForLoadState()
}

/** What the page keeps where: the token must be in sessionStorage only. */
export async function storageOf(page: Page): Promise<{ session: string[]; local: number; cookie: string; url: string }> {
  return page.evaluate(`({
    session: Object.keys(sessionStorage).map((key) => sessionStorage.getItem(key)),
    local: localStorage.length,
    cookie: document.cookie,
    url: location.href,
  })`)
}
