import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { type CheckoutService, startCheckout } from './checkout-service.js'
import { runLoad, type LoadResult } from './load.js'
import { startSink } from './otlp-sink.js'
import { CONNECTIONS, CREATE, LIST, MIXED, type Scenario } from './scenarios.js'

/**
 * Two built checkouts at full load (CONNECTIONS keep-alive connections), the same scenario in
 * alternating rounds on a fresh store each, so that the drift of a shared machine hits both
 * alike: prints each scenario's req/s ratio after ÷ before, the median of the rounds' ratios
 * and their spread. What a saturated service pays per request shows here; `bench:compare`
 * drives a fixed low rate and reads CPU time, which hides costs that only appear at full load.
 */
const { values: flags, positionals: checkouts } = parseArgs({
  allowPositionals: true,
  options: {
    scenarios: { type: 'string', default: 'list,create,mixed' },
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '2' },
    'before-env': { type: 'string', default: '' },
    'after-env': { type: 'string', default: '' },
  },
})
const known: Record<string, Scenario> = { list: LIST, create: CREATE, mixed: MIXED }
const chosen = (flags.scenarios as string).split(',').map((name) => known[name.trim()])
const ROUNDS = Number(flags.rounds)
const SECONDS = Number(flags.seconds)
const WARMUP = Number(flags.warmup)
if (checkouts.length !== 2 || chosen.some((scenario) => scenario === undefined) || !(ROUNDS >= 1) || !(SECONDS > 0) || !(WARMUP >= 0)) {
  console.error(
    'usage: npm run bench:ab -- [--scenarios list,create,mixed] [--rounds 3] [--seconds 8] [--warmup 2] [--before-env K=V,…] [--after-env K=V,…] BEFORE AFTER',
  )
  console.error(
    'BEFORE and AFTER are built checkouts (npm ci there; a git worktree will do), or one checkout twice with different settings.',
  )
  console.error('A setting whose value is "sink" gets the URL of an OTLP receiver in this process that discards what it gets.')
  process.exit(2)
}
const [before, after] = checkouts.map((checkout) => resolve(checkout)) as [string, string]
const sink = await startSink()
const settingsOf = (flag: string): Record<string, string> =>
  Object.fromEntries(
    flag
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        const [key = '', value = ''] = pair.split('=')
        return [key.trim(), value === 'sink' ? sink.url : value]
      }),
  )
const settings = { before: settingsOf(flags['before-env'] as string), after: settingsOf(flags['after-env'] as string) }

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

async function measure(checkout: string, scenario: Scenario, env: Record<string, string>): Promise<LoadResult> {
  const service: CheckoutService = await startCheckout(checkout, { scenario, env })
  try {
    const options = {
      url: service.url,
      connections: CONNECTIONS,
      headers: { authorization: `Bearer ${service.token}` },
      serverPid: service.child.pid as number,
    }
    if (WARMUP > 0) await runLoad({ ...options, seconds: WARMUP, requests: scenario.requests() })
    return await runLoad({ ...options, seconds: SECONDS, requests: scenario.requests() })
  } finally {
    await service.stop()
  }
}

interface Row {
  scenario: string
  before: LoadResult[]
  after: LoadResult[]
  ratios: number[]
}

const rows: Row[] = []
for (const scenario of chosen as Scenario[]) {
  const row: Row = { scenario: scenario.name, before: [], after: [], ratios: [] }
  for (let round = 0; round < ROUNDS; round++) {
    // Who goes first alternates, so that neither always runs on a warmer or cooler machine.
    const order: ['before' | 'after', string][] =
      round % 2 === 0
        ? [
            ['before', before],
            ['after', after],
          ]
        : [
            ['after', after],
            ['before', before],
          ]
    const results: Partial<Record<'before' | 'after', LoadResult>> = {}
    for (const [side, checkout] of order) results[side] = await measure(checkout, scenario, settings[side])
    const { before: a, after: b } = results as Record<'before' | 'after', LoadResult>
    row.before.push(a)
    row.after.push(b)
    row.ratios.push(b.requestsPerSecond / a.requestsPerSecond)
    console.error(
      `${scenario.name} round ${round + 1}: before ${a.requestsPerSecond.toFixed(0)} req/s (p99 ${a.p99} ms), ` +
        `after ${b.requestsPerSecond.toFixed(0)} req/s (p99 ${b.p99} ms), ratio ${(b.requestsPerSecond / a.requestsPerSecond).toFixed(3)}` +
        `${a.failures + b.failures > 0 ? `, ${a.failures + b.failures} FAILURES` : ''}`,
    )
  }
  rows.push(row)
}

sink.close()
const named = (checkout: string, env: Record<string, string>) =>
  Object.keys(env).length === 0
    ? checkout
    : `${checkout} (${Object.entries(env)
        .map(([key, value]) => `${key}=${value}`)
        .join(' ')})`
const lines = [
  `## bench:ab: ${named(after, settings.after)} ÷ ${named(before, settings.before)}`,
  '',
  `${CONNECTIONS} connections, ${WARMUP} s warm-up, ${SECONDS} s measured, ${ROUNDS} alternating rounds per scenario, a fresh SQLite store per round, Node ${process.version}`,
  '',
  "| scenario | before req/s | after req/s | after ÷ before (median) | rounds' ratios | before p99 ms | after p99 ms | failures |",
  '|---|---:|---:|---:|---|---:|---:|---:|',
]
let failures = 0
for (const row of rows) {
  const failed = [...row.before, ...row.after].reduce((sum, result) => sum + result.failures, 0)
  failures += failed
  const rps = (results: LoadResult[]) => median(results.map((result) => result.requestsPerSecond)).toFixed(0)
  const p99 = (results: LoadResult[]) => median(results.map((result) => result.p99))
  lines.push(
    `| ${row.scenario} | ${rps(row.before)} | ${rps(row.after)} | ${median(row.ratios).toFixed(3)} | ` +
      `${row.ratios.map((ratio) => ratio.toFixed(3)).join(', ')} (${Math.min(...row.ratios).toFixed(3)}–${Math.max(...row.ratios).toFixed(3)}) | ` +
      `${p99(row.before)} | ${p99(row.after)} | ${failed} |`,
  )
}
process.stdout.write(`${lines.join('\n')}\n`)
// A round with failed requests measured something else than the scenario: not a figure.
if (failures > 0) process.exitCode = 1
