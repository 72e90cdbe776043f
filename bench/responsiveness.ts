import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Database } from '../src/store/sqlite/driver.js'
import { type TestDatabase, seedPlants, seedWebhookEvents } from '../support/databases.js'
import { makeToken, startService, tempFolder } from '../support/service.js'
import { type ProbeReport, startProbeProcess } from './probe.js'
import { LARGE, quick } from './settings.js'

/** The issue's targets for the small requests sent every 10 ms meanwhile, and for the event loop. */
export const RESPONSIVENESS_TARGETS = { probeP99Ms: 50, probeMaxMs: 200, loopDelayP99Ms: 50 }
const DAY_MS = 86_400_000
/** Delivered events past the 7-day retention, which the service's minutely prune deletes. */
const PAST_RETENTION = quick ? 5_000 : 50_000
/** The prune runs a minute after the start; a little longer is waited for it. */
const PRUNE_WAIT_MS = 90_000

export interface ResponsivenessReport {
  rows: number
  listMs: number
  slowestScrapeMs: number
  /** Null in --quick, which does not wait the minute for the prune. */
  pruneMs: number | null
  probe: ProbeReport
  /** The worst p99 of the event loop's delay over the windows between scrapes, in milliseconds. */
  loopDelayP99Ms: number
  loopDelayMaxMs: number
}

const metric = (text: string, name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000

function pastRetention(db: TestDatabase, before: number): number {
  const sqlite = new Database(db.url.slice('sqlite:'.length), { readonly: true })
  try {
    return sqlite.prepare('SELECT count(*) FROM webhook_deliveries WHERE finished_at < ?').pluck().get(before) as number
  } finally {
    sqlite.close()
  }
}

/**
 * SQLite with LARGE plants, LARGE pending and LARGE delivered webhook events (and some past the
 * retention): the whole list sent to a fast reader, three scrapes of /metrics and the minutely
 * prune, one after another, while another client asks for /healthz and one plant every 10 ms.
 */
export async function benchResponsiveness(): Promise<ResponsivenessReport> {
  const folder = tempFolder()
  const db: TestDatabase = { kind: 'sqlite', url: `sqlite:${join(folder.path, 'responsiveness.db')}`, drop: async () => folder.remove() }
  try {
    const token = await makeToken(db.url, 'bench-all')
    console.error(`seeding ${LARGE} plants, ${LARGE} pending and ${LARGE + PAST_RETENTION} delivered webhook events …`)
    await seedPlants(db, { owner: 'bench-all', firstId: 1n, count: LARGE, name: (i) => `plant ${i}` })
    const now = Date.now()
    await seedWebhookEvents(db, { count: LARGE, state: 'pending', at: now })
    await seedWebhookEvents(db, { count: LARGE, state: 'delivered', at: now })
    await seedWebhookEvents(db, { count: PAST_RETENTION, state: 'delivered', at: now - 8 * DAY_MS })
    const service = await startService({ DATABASE_URL: db.url }, { keepLogs: false })
    try {
      const auth = { authorization: `Bearer ${token}` }
      // A fresh process answers its first requests slowly (code loaded and compiled): not what is judged.
      for (let i = 0; i < 20; i++) await (await fetch(`${service.url}/plants/1`, { headers: auth })).text()
      const loop = { p99: 0, max: 0 }
      const scrape = async () => {
        const started = performance.now()
        const text = await (await fetch(`${service.url}/metrics`)).text()
        const ms = performance.now() - started
        loop.p99 = Math.max(loop.p99, metric(text, 'nodejs_eventloop_lag_p99_seconds'))
        loop.max = Math.max(loop.max, metric(text, 'nodejs_eventloop_lag_max_seconds'))
        return ms
      }
      await scrape()
      loop.p99 = 0
      loop.max = 0
      const probe = await startProbeProcess([{ url: `${service.url}/healthz` }, { url: `${service.url}/plants/1`, headers: auth }])
      const steps = async () => {
        const started = performance.now()
        const list = await fetch(`${service.url}/plants`, { headers: auth })
        const body = await list.text()
        const listMs = performance.now() - started
        if (list.status !== 200 || body.length < LARGE * 10) throw new Error(`the list answered ${list.status}, ${body.length} bytes`)
        await scrape()
        let slowestScrapeMs = 0
        for (let i = 0; i < 3; i++) slowestScrapeMs = Math.max(slowestScrapeMs, await scrape())
        if (quick) return { listMs, slowestScrapeMs, pruneMs: null }
        const waitStarted = performance.now()
        while (pastRetention(db, now - 7 * DAY_MS) > 0 && performance.now() - waitStarted < PRUNE_WAIT_MS) await sleep(250)
        if (pastRetention(db, now - 7 * DAY_MS) > 0) throw new Error(`the prune did not run within ${PRUNE_WAIT_MS} ms`)
        const pruneMs = performance.now() - waitStarted
        await scrape()
        return { listMs, slowestScrapeMs, pruneMs }
      }
      const { listMs, slowestScrapeMs, pruneMs } = await steps().catch(async (error: unknown) => {
        await probe.stop()
        throw error
      })
      const report = await probe.stop()
      const result = { rows: LARGE, listMs, slowestScrapeMs, pruneMs, probe: report, loopDelayP99Ms: loop.p99, loopDelayMaxMs: loop.max }
      console.error(
        `responsiveness: list of ${LARGE} ${listMs.toFixed(0)} ms, slowest scrape ${slowestScrapeMs.toFixed(1)} ms` +
          `${pruneMs === null ? '' : `, prune done ${(pruneMs / 1000).toFixed(1)} s into the wait`}; probes ${report.answers} ` +
          `(${report.failures} failed) p99 ${report.p99.toFixed(1)} ms, max ${report.max.toFixed(1)} ms; ` +
          `event loop delay p99 ${loop.p99.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms`,
      )
      return result
    } finally {
      await service.stop()
    }
  } finally {
    await db.drop()
  }
}
