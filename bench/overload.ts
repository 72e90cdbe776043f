import autocannon from 'autocannon'
import { join } from 'node:path'
import { makeToken, startService, tempFolder } from '../support/service.js'
import { haproxyInstalled, startFrontProxy } from '../support/front-proxy.js'
import { type ProbeReport, startProbeProcess } from './probe.js'
import { CONNECTIONS, CREATE } from './scenarios.js'
import { MEASURE_SECONDS, WARMUP_SECONDS, quick } from './settings.js'

/** The overload: ten times the saturating concurrency, for 20 s. */
export const OVERLOAD_CONNECTIONS = 10 * CONNECTIONS
const OVERLOAD_SECONDS = quick ? 3 : 20
/** Its targets: /healthz answers, no request waits long for its 200 or 503, and accepted work stays. */
export const OVERLOAD_TARGETS = { healthP99Ms: 100, longestWaitMs: 3_000, acceptedShare: 0.8 }

export interface OverloadReport {
  /** Straight on the instance, or through `deploy/front/haproxy.cfg` with this cap on its connections. */
  proxyMaxconn: number | null
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

/** The saturated rate at the bench's concurrency, then ten times as many clients while /healthz is asked of the instance. */
async function measure(
  instanceUrl: string,
  token: string,
  { saturateAt, floodAt, proxyMaxconn }: { saturateAt: string; floodAt: string; proxyMaxconn: number | null },
): Promise<OverloadReport> {
  await drive(saturateAt, token, CONNECTIONS, WARMUP_SECONDS)
  const saturated = await drive(saturateAt, token, CONNECTIONS, MEASURE_SECONDS)
  // A load balancer's check goes to the instance itself, not through the proxy's queue.
  const probe = await startProbeProcess([{ url: `${instanceUrl}/healthz` }])
  const flood = await drive(floodAt, token, OVERLOAD_CONNECTIONS, OVERLOAD_SECONDS).catch(async (error: unknown) => {
    await probe.stop()
    throw error
  })
  const health = await probe.stop()
  const report = {
    proxyMaxconn,
    saturated: saturated.okPerSecond,
    accepted: flood.okPerSecond,
    refused: flood.refused,
    failures: flood.failures + saturated.failures,
    longestWaitMs: flood.longestWaitMs,
    health,
  }
  const where = proxyMaxconn === null ? 'straight on the instance' : `behind HAProxy, maxconn ${proxyMaxconn}`
  console.error(
    `overload, ${where}: ${OVERLOAD_CONNECTIONS} clients for ${OVERLOAD_SECONDS} s: ${report.accepted.toFixed(0)} creates/s accepted ` +
      `(saturated at ${CONNECTIONS}: ${report.saturated.toFixed(0)}/s), ${report.refused} refused with 503, ${report.failures} failed, ` +
      `longest wait ${report.longestWaitMs} ms; /healthz p99 ${health.p99.toFixed(1)} ms, max ${health.max.toFixed(1)} ms`,
  )
  return report
}

/**
 * Creates on SQLite, straight on the instance and then behind the shipped HAProxy front (when
 * haproxy is installed): its saturated rate measured through the proxy without the cap, so that
 * the share counts what the cap costs and not what the proxy's own work takes from two cores.
 */
export async function benchOverload(): Promise<OverloadReport[]> {
  const folder = tempFolder()
  const databaseUrl = `sqlite:${join(folder.path, 'overload.db')}`
  try {
    const token = await makeToken(databaseUrl, 'bench-overload')
    const service = await startService({ DATABASE_URL: databaseUrl }, { keepLogs: false })
    try {
      const reports = [await measure(service.url, token, { saturateAt: service.url, floodAt: service.url, proxyMaxconn: null })]
      if (!haproxyInstalled()) {
        console.error('overload behind a proxy: skipped, haproxy is not installed')
        return reports
      }
      const uncapped = await startFrontProxy(service.url, folder.path, { maxconn: null })
      const capped = await startFrontProxy(service.url, folder.path).catch(async (error: unknown) => {
        await uncapped.stop()
        throw error
      })
      try {
        reports.push(await measure(service.url, token, { saturateAt: uncapped.url, floodAt: capped.url, proxyMaxconn: capped.maxconn }))
      } finally {
        for (const proxy of [uncapped, capped])
          if (/ is DOWN/.test(proxy.log())) console.error(`haproxy (maxconn ${proxy.maxconn}): ${proxy.log()}`)
        await Promise.all([uncapped.stop(), capped.stop()])
      }
      return reports
    } finally {
      await service.stop()
    }
  } finally {
    folder.remove()
  }
}
