import autocannon from 'autocannon'
import { join } from 'node:path'
import { makeToken, startService, tempFolder } from '../support/service.js'
import { type ProbeReport, startProbeProcess } from './probe.js'
import { CONNECTIONS, CREATE } from './scenarios.js'
import { MEASURE_SECONDS, WARMUP_SECONDS, quick } from './settings.js'

/** The overload: ten times the saturating concurrency, for 20 s. */
export const OVERLOAD_CONNECTIONS = 10 * CONNECTIONS
const OVERLOAD_SECONDS = quick ? 3 : 20
/** Its targets: /healthz answers, no request waits long for its 200 or 503, and accepted work stays. */
export const OVERLOAD_TARGETS = { healthP99Ms: 100, longestWaitMs: 3_000, acceptedShare: 0.8 }

export interface OverloadReport {
  saturated: number
  accepted: number
  refused: number
  /** Answers other than 200 and 503, connection errors and timeouts. */
  failures: number
  longestWaitMs: number
  health: ProbeReport
}

async function drive(url: string, token: string, connections: number, seconds: number) {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
    requests: CREATE.requests(),
  })
  const count = (status: number) => (result.statusCodeStats as Record<string, { count: number }> | undefined)?.[String(status)]?.count ?? 0
  const ok = count(200)
  const refused = count(503)
  return {
    okPerSecond: ok / seconds,
    refused,
    failures: result.non2xx - refused + result.errors + result.timeouts,
    longestWaitMs: result.latency.max,
  }
}

/** Creates on SQLite: the saturated rate at the bench's concurrency, then ten times as many clients with /healthz probed. */
export async function benchOverload(): Promise<OverloadReport> {
  const folder = tempFolder()
  const databaseUrl = `sqlite:${join(folder.path, 'overload.db')}`
  try {
    const token = await makeToken(databaseUrl, 'bench-overload')
    const service = await startService({ DATABASE_URL: databaseUrl }, { keepLogs: false })
    try {
      await drive(service.url, token, CONNECTIONS, WARMUP_SECONDS)
      const saturated = await drive(service.url, token, CONNECTIONS, MEASURE_SECONDS)
      const probe = await startProbeProcess([{ url: `${service.url}/healthz` }])
      const flood = await drive(service.url, token, OVERLOAD_CONNECTIONS, OVERLOAD_SECONDS).catch(async (error: unknown) => {
        await probe.stop()
        throw error
      })
      const health = await probe.stop()
      const report = {
        saturated: saturated.okPerSecond,
        accepted: flood.okPerSecond,
        refused: flood.refused,
        failures: flood.failures + saturated.failures,
        longestWaitMs: flood.longestWaitMs,
        health,
      }
      console.error(
        `overload: ${OVERLOAD_CONNECTIONS} clients for ${OVERLOAD_SECONDS} s: ${report.accepted.toFixed(0)} creates/s accepted ` +
          `(saturated at ${CONNECTIONS}: ${report.saturated.toFixed(0)}/s), ${report.refused} refused with 503, ${report.failures} failed, ` +
          `longest wait ${report.longestWaitMs} ms; /healthz p99 ${health.p99.toFixed(1)} ms, max ${health.max.toFixed(1)} ms`,
      )
      return report
    } finally {
      await service.stop()
    }
  } finally {
    folder.remove()
  }
}
