import { OVERLOAD_CONNECTIONS, OVERLOAD_TARGETS, type OverloadReport } from './overload.js'
import { RESPONSIVENESS_TARGETS, type ResponsivenessReport } from './responsiveness.js'
import { CONNECTIONS } from './scenarios.js'

const mark = (ok: boolean) => (ok ? 'met' : '**MISSED**')
const ms = (value: number) => value.toFixed(1)

function overloadTable(overload: OverloadReport): { lines: string[]; allMet: boolean } {
  const o = OVERLOAD_TARGETS
  const acceptedShare = overload.accepted / overload.saturated
  const checks = [
    overload.health.p99 <= o.healthP99Ms,
    overload.longestWaitMs <= o.longestWaitMs,
    acceptedShare >= o.acceptedShare,
    overload.failures === 0 && overload.health.failures === 0,
  ]
  const where =
    overload.proxyMaxconn === null
      ? 'straight on the instance'
      : `behind deploy/front/haproxy.cfg (maxconn ${overload.proxyMaxconn}; saturated measured through it uncapped; /healthz asked of the instance)`
  const lines = [
    `### Overload (SQLite, creates from ${OVERLOAD_CONNECTIONS} clients, ten times the ${CONNECTIONS} that saturate it), ${where}`,
    '',
    '| measure | value | target | |',
    '|---|---:|---|---|',
    `| /healthz p99 meanwhile | ${ms(overload.health.p99)} ms | ≤ ${o.healthP99Ms} ms | ${mark(checks[0] as boolean)} |`,
    `| longest wait for a 200 or a 503 | ${overload.longestWaitMs} ms | ≤ ${o.longestWaitMs} ms | ${mark(checks[1] as boolean)} |`,
    `| creates accepted ÷ saturated (${overload.accepted.toFixed(0)} ÷ ${overload.saturated.toFixed(0)}/s; ${overload.refused} refused with 503) | ${acceptedShare.toFixed(3)} | ≥ ${o.acceptedShare} | ${mark(checks[2] as boolean)} |`,
    `| failed (neither 200 nor 503) | ${overload.failures + overload.health.failures} | 0 | ${mark(checks[3] as boolean)} |`,
    '',
  ]
  return { lines, allMet: checks.every(Boolean) }
}

/** The responsiveness scenario and each overload run as small tables, and whether every target was met. */
export function loadReport(responsiveness: ResponsivenessReport, overloads: OverloadReport[]): { text: string; allMet: boolean } {
  const r = RESPONSIVENESS_TARGETS
  const checks = [
    responsiveness.probe.p99 <= r.probeP99Ms,
    responsiveness.probe.max <= r.probeMaxMs,
    responsiveness.loopDelayP99Ms <= r.loopDelayP99Ms,
    responsiveness.probe.failures === 0,
  ]
  const tables = overloads.map(overloadTable)
  const prune =
    responsiveness.pruneMs === null ? 'not waited for (--quick)' : `done ${(responsiveness.pruneMs / 1000).toFixed(1)} s into the wait`
  const lines = [
    `### No request waits behind another (SQLite, ${responsiveness.rows} plants, ${responsiveness.rows} pending and as many delivered events)`,
    '',
    `The whole list (${ms(responsiveness.listMs)} ms), three scrapes (slowest ${ms(responsiveness.slowestScrapeMs)} ms) and the prune (${prune}), ` +
      'while /healthz and one plant are asked for every 10 ms:',
    '',
    '| measure | value | target | |',
    '|---|---:|---|---|',
    `| those requests' p99 | ${ms(responsiveness.probe.p99)} ms | ≤ ${r.probeP99Ms} ms | ${mark(checks[0] as boolean)} |`,
    `| their longest | ${ms(responsiveness.probe.max)} ms | ≤ ${r.probeMaxMs} ms | ${mark(checks[1] as boolean)} |`,
    `| event loop delay p99 (worst window between scrapes) | ${ms(responsiveness.loopDelayP99Ms)} ms | ≤ ${r.loopDelayP99Ms} ms | ${mark(checks[2] as boolean)} |`,
    `| failed of ${responsiveness.probe.answers} | ${responsiveness.probe.failures} | 0 | ${mark(checks[3] as boolean)} |`,
    '',
    ...tables.flatMap((table) => table.lines),
  ]
  return { text: lines.join('\n'), allMet: checks.every(Boolean) && tables.every((table) => table.allMet) }
}
