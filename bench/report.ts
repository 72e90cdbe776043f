import type { DeliveryLatency } from './deliveries.js'
import type { LoadResult } from './load.js'
import { DELIVERY_RATE, DELIVERY_SECONDS, DELIVERY_TARGET_MS, IDLE_SETTLE_MS, LARGE, SMALL_STORE, WEBHOOK_LABEL } from './settings.js'

export interface Comparison {
  scenario: string
  service: LoadResult
  baseline: LoadResult
  ratio: number
  /** The service on a store of 1,000 plants, measured in the same rounds: what a large store is held to. */
  smallStore?: LoadResult
  /** The service's p99 of each round (`service.p99` is their mean), in autocannon's whole milliseconds. */
  serviceP99s: number[]
}

export interface StoreReport {
  kind: string
  comparisons: Comparison[]
  delivery: DeliveryLatency
  listAll: { firstByteMs: number; totalMs: number; bytes: number; startRss: number; idleRss: number; peakAboveIdle: number }
}

/** Three decimals, cut rather than rounded: a ratio shown as meeting its target (0.850) does. */
export const shownRatio = (ratio: number) => (Math.floor(ratio * 1000) / 1000).toFixed(3)
const MiB = 2 ** 20
/** A scenario's p99 may be at most this many times the baseline's p99 in the same rounds. */
const P99_RATIO = 2
const baselineColumns = (comparison: Comparison) => `${comparison.baseline.requestsPerSecond.toFixed(0)} | ${comparison.baseline.p99}`
const mark = (ok: boolean) => (ok ? 'met' : '**MISSED**')
/** The mean p99, with each round's beside it when there were several. */
export const p99Cell = (comparison: Comparison) =>
  comparison.serviceP99s.length > 1 ? `${comparison.service.p99} (${comparison.serviceP99s.join(', ')})` : `${comparison.service.p99}`

/** The store of `npm start`'s defaults: the issue's targets are for it; other stores are measured against them for information. */
export const DEFAULT_STORE = 'sqlite'

export function report(stores: StoreReport[]): { text: string; allMet: boolean } {
  const lines: string[] = []
  /** One line per store: which targets it missed, so that one store's misses do not hide another's result. */
  const verdicts: string[] = []
  let allMet = true
  for (const store of stores) {
    const misses: string[] = []
    const check = (ok: boolean, what: string) => {
      if (!ok) misses.push(what)
      return mark(ok)
    }
    const targets: Record<string, { ratio: number; large?: true }> = {
      list: { ratio: 0.5 },
      create: { ratio: 0.5 },
      mixed: { ratio: 0.45 },
      [WEBHOOK_LABEL]: { ratio: 0.45 },
      'big list': { ratio: 0.85, large: true },
      'big create': { ratio: 0.85, large: true },
    }
    lines.push(`### ${store.kind}`, '')
    lines.push(
      '| scenario | req/s | p50 ms | p99 ms (each round) | server peak RSS MiB | baseline req/s | baseline p99 ms | ratio | target | |',
    )
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---|---|')
    for (const comparison of store.comparisons) {
      const target = targets[comparison.scenario]
      if (target === undefined) {
        // The WORKERS=2 rows are the only ones whose service is more than one process.
        const informational = comparison.scenario === 'patch'
        lines.push(
          `| ${comparison.scenario} | ${comparison.service.requestsPerSecond.toFixed(0)} | ${comparison.service.p50} | ` +
            `${p99Cell(comparison)} | ${(comparison.service.peakRss / MiB).toFixed(1)}${informational ? '' : ' (all processes)'} | ${baselineColumns(comparison)} | ` +
            `${shownRatio(comparison.ratio)}× | ${informational ? 'none: for information' : 'none: not a default, for its gain'} | |`,
        )
        continue
      }
      const small = target.large ? comparison.smallStore : undefined
      if (target.large && small === undefined) throw new Error(`${comparison.scenario} was measured without its small store`)
      const shown = small ? comparison.service.requestsPerSecond / small.requestsPerSecond : comparison.ratio
      const ratioOk = shown >= target.ratio
      const latencyOk = target.large === true || comparison.service.p99 <= P99_RATIO * comparison.baseline.p99
      const failures = comparison.service.failures + (small?.failures ?? 0)
      const failuresOk = failures === 0
      const missed = [!ratioOk && 'ratio', !latencyOk && 'p99', !failuresOk && 'failures'].filter(Boolean).join(', ')
      const goal = small
        ? `≥ ${target.ratio}× of ${small.requestsPerSecond.toFixed(0)} req/s on a ${SMALL_STORE}-plant store, in the same rounds`
        : `≥ ${target.ratio}×, p99 ≤ ${P99_RATIO}× the baseline's`
      lines.push(
        `| ${comparison.scenario} | ${comparison.service.requestsPerSecond.toFixed(0)} | ${comparison.service.p50} | ` +
          `${p99Cell(comparison)} | ${(comparison.service.peakRss / MiB).toFixed(1)} | ` +
          `${baselineColumns(comparison)} | ${shownRatio(comparison.ratio)}× | ${goal}` +
          `${small ? ` → ${shownRatio(shown)}` : ''}${failures ? `, ${failures} failures` : ''} | ` +
          `${check(ratioOk && latencyOk && failuresOk, `${comparison.scenario} (${missed})`)}${missed ? ` (${missed})` : ''} |`,
      )
    }
    const delivery = store.delivery
    const deliveryOk = delivery.missing === 0 && delivery.max <= DELIVERY_TARGET_MS
    lines.push('')
    lines.push('| webhook delivery | value | target | |')
    lines.push('|---|---:|---|---|')
    lines.push(`| events, at ${DELIVERY_RATE} creates/s for ${DELIVERY_SECONDS} s | ${delivery.events} (${delivery.missing} missing) | | |`)
    lines.push(
      `| acknowledgement → receipt, p50 / p99 / max | ${delivery.p50.toFixed(1)} / ${delivery.p99.toFixed(1)} / ${delivery.max.toFixed(1)} ms | ` +
        `every event within ${DELIVERY_TARGET_MS} ms | ${check(deliveryOk, 'webhook delivery')} |`,
    )
    const all = store.listAll
    lines.push('')
    lines.push('| list-all | value | target | |')
    lines.push('|---|---:|---|---|')
    lines.push(`| plants streamed | ${LARGE} (${(all.bytes / MiB).toFixed(1)} MiB) | | |`)
    lines.push(
      `| time to first byte | ${all.firstByteMs.toFixed(1)} ms | < 50 ms | ${check(all.firstByteMs < 50, 'list-all (first byte)')} |`,
    )
    lines.push(`| total time | ${(all.totalMs / 1000).toFixed(2)} s | | |`)
    lines.push(
      `| server peak RSS above idle | ${(all.peakAboveIdle / MiB).toFixed(1)} MiB | < 64 MiB | ${check(all.peakAboveIdle < 64 * MiB, 'list-all (peak RSS)')} |`,
    )
    lines.push(`| RSS 1 s after start | ${(all.startRss / 1e6).toFixed(1)} MB | | |`)
    lines.push(
      `| idle RSS after start (idle ${IDLE_SETTLE_MS / 1000} s) | ${(all.idleRss / 1e6).toFixed(1)} MB | < 80 MB | ${check(all.idleRss < 80e6, 'idle RSS')} |`,
    )
    lines.push('')
    const isDefault = store.kind === DEFAULT_STORE
    if (isDefault) allMet &&= misses.length === 0
    const verdict = misses.length === 0 ? 'every target met' : `**MISSED**: ${misses.join(', ')}`
    verdicts.push(`- ${store.kind}${isDefault ? ' (the default store)' : ' (not the default; for information)'}: ${verdict}`)
  }
  lines.push(...verdicts, '')
  return { text: lines.join('\n'), allMet }
}
