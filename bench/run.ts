import { mkdirSync, writeFileSync } from 'node:fs'
import { get } from 'node:http'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { type TestDatabase, seedPlants } from '../support/databases.js'
import { REPO_ROOT, type Service, makeToken, startService, tempFolder } from '../support/service.js'
import { Receiver } from '../support/receiver.js'
import { type DeliveryLatency, deliveryLatency } from './deliveries.js'
import { type LoadResult, residentMemory, runLoad } from './load.js'
import { startBaseline } from './start-baseline.js'
import { CONNECTIONS, CREATE, LIST, MIXED, type Scenario } from './scenarios.js'

const { values: flags } = parseArgs({ options: { quick: { type: 'boolean', default: false } } })
const quick = flags.quick === true
const WARMUP_SECONDS = quick ? 0.5 : 3
const MEASURE_SECONDS = quick ? 1.5 : 10
const ROUNDS = quick ? 1 : 2
/** Rows of the large scenarios; --quick keeps the harness honest, not the figures. */
const LARGE = quick ? 100_000 : 1_000_000
const OWNERS = 1_000
/** The plants of the store that `big` is held to (the issue's "1,000-plant figures"). */
const SMALL_STORE = 1_000
/**
 * Idle RSS is read once the process has been idle this long. V8 gives back the young
 * generation that start-up grew at the first of its checks, 8 s apart from the first full GC
 * (about 0.5 s after start), that finds the process allocating little: seen at 8 to 12 s in
 * earlier sessions and at 16 or 24 s in later ones. 45 s covers five checks.
 */
const IDLE_SETTLE_MS = 45_000

const WORKERS_LABEL = '(WORKERS=2)'
const WEBHOOK_LABEL = 'create (1 webhook)'
/** The steady rate and duration at which webhook delivery must keep up. */
const DELIVERY_RATE = 1_000
const DELIVERY_SECONDS = quick ? 2 : 10
/** Every event must arrive within this time of its plant's acknowledgement. */
const DELIVERY_TARGET_MS = 2_000
/** The bench's receivers listen on loopback. */
const WEBHOOK_ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }

async function webhookCall(method: string, url: string, token: string, body?: string): Promise<string> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const answer = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) })
  const text = await answer.text()
  if (!answer.ok) throw new Error(`${method} ${url} answered ${answer.status}: ${text}`)
  return text
}

/** A subscription of the token's subject to `url`, which `renew` replaces by a new one (dropping what is pending). */
async function subscription(serviceUrl: string, token: string, url: string) {
  const make = async () => (JSON.parse(await webhookCall('POST', `${serviceUrl}/webhooks`, token, JSON.stringify({ url }))) as { id: string }).id
  let id = await make()
  const drop = () => webhookCall('DELETE', `${serviceUrl}/webhooks/${id}`, token)
  return {
    drop,
    async renew() {
      await drop()
      id = await make()
    },
  }
}

/**
 * `create` with one subscription whose receiver (a bare node:http process, like the baseline)
 * answers at once; then delivery at a steady rate, timed to a receiver in this process.
 */
async function benchWebhooks(service: Service, target: Target, baseline: Target, manager: string): Promise<{ comparison: Comparison; delivery: DeliveryLatency }> {
  const flood = await startBaseline()
  let comparison: Comparison
  try {
    const subscribed = await subscription(service.url, manager, `${flood.url}/hook`)
    // The events a round leaves pending are dropped before the baseline's round, which they would slow.
    comparison = await compare(WEBHOOK_LABEL, target, baseline, CREATE, undefined, () => subscribed.renew())
    await subscribed.drop()
  } finally {
    flood.process.kill('SIGTERM')
  }
  const timed = await Receiver.start()
  let delivery: DeliveryLatency
  try {
    const subscribed = await subscription(service.url, manager, timed.url())
    delivery = await deliveryLatency(service.url, target.token as string, timed, DELIVERY_RATE, DELIVERY_SECONDS, 5_000_000_000_000n)
    await subscribed.drop()
  } finally {
    await timed.close()
  }
  console.error(
    `delivery at ${DELIVERY_RATE} creates/s: ${delivery.events} events, acknowledgement → receipt p50 ${delivery.p50.toFixed(1)} ms, ` +
      `p99 ${delivery.p99.toFixed(1)} ms, max ${delivery.max.toFixed(1)} ms, ${delivery.missing} missing`,
  )
  return { comparison, delivery }
}

interface Comparison {
  scenario: string
  service: LoadResult
  baseline: LoadResult
  ratio: number
  /** The service on a store of 1,000 plants, measured in the same rounds: what a large store is held to. */
  smallStore?: LoadResult
  /** The service's p99 of each round (`service.p99` is their mean), in autocannon's whole milliseconds. */
  serviceP99s: number[]
}

/** Three decimals, cut rather than rounded: a ratio shown as meeting its target (0.850) does. */
const shownRatio = (ratio: number) => (Math.floor(ratio * 1000) / 1000).toFixed(3)
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length

function average(results: LoadResult[]): LoadResult {
  return {
    requestsPerSecond: mean(results.map((result) => result.requestsPerSecond)),
    p50: mean(results.map((result) => result.p50)),
    p99: mean(results.map((result) => result.p99)),
    failures: results.reduce((sum, result) => sum + result.failures, 0),
    peakRss: Math.max(...results.map((result) => result.peakRss)),
  }
}

interface Target {
  url: string
  pid: number
  token?: string
}

async function measure(target: Target, scenario: Scenario): Promise<LoadResult> {
  const headers: Record<string, string> = target.token ? { authorization: `Bearer ${target.token}` } : {}
  const options = { url: target.url, connections: CONNECTIONS, headers, serverPid: target.pid }
  await runLoad({ ...options, seconds: WARMUP_SECONDS, requests: scenario.requests() })
  return runLoad({ ...options, seconds: MEASURE_SECONDS, requests: scenario.requests() })
}

/**
 * Service and baseline in turns, with identical settings, so that drift hits both alike; with
 * `smallStore`, the service on a small store too, in the same turns.
 */
async function compare(
  label: string,
  service: Target,
  baseline: Target,
  scenario: Scenario,
  smallStore?: Target,
  afterServiceRound?: () => Promise<void>,
): Promise<Comparison> {
  const serviceRuns: LoadResult[] = []
  const baselineRuns: LoadResult[] = []
  const smallStoreRuns: LoadResult[] = []
  for (let round = 0; round < ROUNDS; round++) {
    serviceRuns.push(await measure(service, scenario))
    await afterServiceRound?.()
    if (smallStore) smallStoreRuns.push(await measure(smallStore, scenario))
    baselineRuns.push(await measure(baseline, scenario))
  }
  const result = average(serviceRuns)
  const base = average(baselineRuns)
  const comparison: Comparison = {
    scenario: label,
    service: result,
    baseline: base,
    ratio: result.requestsPerSecond / base.requestsPerSecond,
    serviceP99s: serviceRuns.map((run) => run.p99),
    ...(smallStore ? { smallStore: average(smallStoreRuns) } : {}),
  }
  const small = comparison.smallStore
    ? `, ${shownRatio(result.requestsPerSecond / comparison.smallStore.requestsPerSecond)} of ${comparison.smallStore.requestsPerSecond.toFixed(0)} req/s on a ${SMALL_STORE}-plant store`
    : ''
  console.error(
    `${label}: ${result.requestsPerSecond.toFixed(0)} req/s vs baseline ${base.requestsPerSecond.toFixed(0)} ` +
      `(${shownRatio(comparison.ratio)}×)${small}, p99 ${p99Cell(comparison)} ms, failures ${result.failures}`,
  )
  return comparison
}

/** The first byte and the end of one streamed GET, in milliseconds. */
function timeStream(url: string, token: string): Promise<{ firstByteMs: number; totalMs: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    let firstByteMs = 0
    let bytes = 0
    get(url, { headers: { authorization: `Bearer ${token}` } }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`list-all answered ${response.statusCode}`))
      response.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByteMs = performance.now() - started
        bytes += chunk.length
      })
      response.on('end', () => resolve({ firstByteMs, totalMs: performance.now() - started, bytes }))
    }).on('error', reject)
  })
}

let benchDatabases = 0

async function benchDatabase(kind: 'sqlite' | 'postgres'): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const folder = tempFolder()
    return { kind, url: `sqlite:${join(folder.path, 'bench.db')}`, drop: async () => folder.remove() }
  }
  const server = process.env.BENCH_DATABASE_URL as string
  const name = `plantstore_bench_${Date.now()}_${(benchDatabases += 1)}`
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: server })
    await client.connect()
    await client.query(sql).finally(() => client.end())
  }
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(server)
  url.pathname = `/${name}`
  return { kind, url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

interface StoreReport {
  kind: string
  comparisons: Comparison[]
  delivery: DeliveryLatency
  listAll: { firstByteMs: number; totalMs: number; bytes: number; startRss: number; idleRss: number; peakAboveIdle: number }
}

async function benchStore(kind: 'sqlite' | 'postgres'): Promise<StoreReport> {
  const db = await benchDatabase(kind)
  const databases = [db]
  const baseline = await startBaseline()
  const services: Service[] = []
  try {
    const service = await startService({ DATABASE_URL: db.url, ...WEBHOOK_ENV }, { keepLogs: false })
    services.push(service)
    const [lister, writer, manager] = await Promise.all([
      makeToken(db.url, 'bench-list'),
      makeToken(db.url, 'bench-write'),
      makeToken(db.url, 'bench-write', '--scope', 'plants:read,plants:write,webhooks:manage'),
    ])
    await seedPlants(db, { owner: 'bench-list', firstId: 1n, count: 1_000, name: (i) => `plant ${i}` })
    const pid = service.process.pid as number
    const baseTarget = { url: baseline.url, pid: baseline.process.pid as number }
    const comparisons = [
      await compare('list', { url: service.url, pid, token: lister }, baseTarget, LIST),
      await compare('create', { url: service.url, pid, token: writer }, baseTarget, CREATE),
      await compare('mixed', { url: service.url, pid, token: writer }, baseTarget, MIXED),
    ]
    const webhooks = await benchWebhooks(service, { url: service.url, pid, token: writer }, baseTarget, manager)
    comparisons.push(webhooks.comparison)
    await service.stop()

    // Not a default: WORKERS=2 for its measured gain (README, "WORKERS"); no target applies.
    const workers = await startService({ DATABASE_URL: db.url, WORKERS: '2' }, { keepLogs: false })
    services.push(workers)
    const primary = workers.process.pid as number
    comparisons.push(await compare(`list ${WORKERS_LABEL}`, { url: workers.url, pid: primary, token: lister }, baseTarget, LIST))
    comparisons.push(await compare(`create ${WORKERS_LABEL}`, { url: workers.url, pid: primary, token: writer }, baseTarget, CREATE))
    await workers.stop()
    const single = await startService({ DATABASE_URL: db.url }, { keepLogs: false })
    services.push(single)
    const singlePid = single.process.pid as number

    console.error(`seeding ${LARGE} plants over ${OWNERS} owners …`)
    const perOwner = LARGE / OWNERS
    for (let owner = 0; owner < OWNERS; owner++) {
      await seedPlants(db, {
        owner: `owner-${owner}`,
        firstId: 10_000_000n + BigInt(owner * perOwner),
        count: perOwner,
        name: (i) => `plant ${i}`,
      })
    }
    const bigOwner = await makeToken(db.url, `owner-${OWNERS / 2}`)
    // The service on a store of 1,000 plants, in the same turns as the large one: the machine's
    // speed moves within minutes, so the small store's figure from the start of the run would not do.
    const smallDb = await benchDatabase(kind)
    databases.push(smallDb)
    const small = await startService({ DATABASE_URL: smallDb.url }, { keepLogs: false })
    services.push(small)
    const smallTarget = { url: small.url, pid: small.process.pid as number, token: await makeToken(smallDb.url, `owner-${OWNERS / 2}`) }
    await seedPlants(smallDb, { owner: `owner-${OWNERS / 2}`, firstId: 1n, count: SMALL_STORE, name: (i) => `plant ${i}` })
    const bigTarget = { url: single.url, pid: singlePid, token: bigOwner }
    comparisons.push(await compare('big list', bigTarget, baseTarget, LIST, smallTarget))
    comparisons.push(await compare('big create', bigTarget, baseTarget, CREATE, smallTarget))
    await Promise.all([single.stop(), small.stop()])

    console.error(`seeding ${LARGE} plants of one owner …`)
    await seedPlants(db, { owner: 'bench-all', firstId: 100_000_000n, count: LARGE, name: (i) => `plant ${i}` })
    const fresh = await startService({ DATABASE_URL: db.url }, { keepLogs: false })
    services.push(fresh)
    const allToken = await makeToken(db.url, 'bench-all')
    const freshPid = fresh.process.pid as number
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const startRss = residentMemory(freshPid)
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS - 1000))
    const idleRss = residentMemory(freshPid)
    const streamed = await timeStream(`${fresh.url}/plants`, allToken)
    const listAll = { ...streamed, startRss, idleRss, peakAboveIdle: residentMemory(freshPid, 'VmHWM') - idleRss }
    console.error(
      `list-all: ${LARGE} plants, first byte ${streamed.firstByteMs.toFixed(1)} ms, total ${(streamed.totalMs / 1000).toFixed(2)} s, ` +
        `RSS 1 s after start ${(startRss / 1e6).toFixed(1)} MB, idle ${(idleRss / 1e6).toFixed(1)} MB, peak +${(listAll.peakAboveIdle / 2 ** 20).toFixed(1)} MiB`,
    )
    return { kind, comparisons, listAll, delivery: webhooks.delivery }
  } finally {
    await Promise.all(services.map((service) => service.stop()))
    baseline.process.kill('SIGTERM')
    await Promise.all(databases.map((database) => database.drop()))
  }
}

const MiB = 2 ** 20
/** A scenario's p99 may be at most this many times the baseline's p99 in the same rounds. */
const P99_RATIO = 2
const baselineColumns = (comparison: Comparison) => `${comparison.baseline.requestsPerSecond.toFixed(0)} | ${comparison.baseline.p99}`
const mark = (ok: boolean) => (ok ? 'met' : '**MISSED**')
/** The mean p99, with each round's beside it when there were several. */
const p99Cell = (comparison: Comparison) =>
  comparison.serviceP99s.length > 1 ? `${comparison.service.p99} (${comparison.serviceP99s.join(', ')})` : `${comparison.service.p99}`

/** The store of `npm start`'s defaults: the issue's targets are for it; other stores are measured against them for information. */
const DEFAULT_STORE = 'sqlite'

function report(stores: StoreReport[]): { text: string; allMet: boolean } {
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
    lines.push('| scenario | req/s | p50 ms | p99 ms (each round) | server peak RSS MiB | baseline req/s | baseline p99 ms | ratio | target | |')
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---|---|')
    for (const comparison of store.comparisons) {
      const target = targets[comparison.scenario]
      if (target === undefined) {
        lines.push(
          `| ${comparison.scenario} | ${comparison.service.requestsPerSecond.toFixed(0)} | ${comparison.service.p50} | ` +
            `${p99Cell(comparison)} | ${(comparison.service.peakRss / MiB).toFixed(1)} (all processes) | ${baselineColumns(comparison)} | ` +
            `${shownRatio(comparison.ratio)}× | none: not a default, for its gain | |`,
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
    lines.push(`| time to first byte | ${all.firstByteMs.toFixed(1)} ms | < 50 ms | ${check(all.firstByteMs < 50, 'list-all (first byte)')} |`)
    lines.push(`| total time | ${(all.totalMs / 1000).toFixed(2)} s | | |`)
    lines.push(`| server peak RSS above idle | ${(all.peakAboveIdle / MiB).toFixed(1)} MiB | < 64 MiB | ${check(all.peakAboveIdle < 64 * MiB, 'list-all (peak RSS)')} |`)
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

async function main(): Promise<void> {
  const kinds: ('sqlite' | 'postgres')[] = ['sqlite']
  if (process.env.BENCH_DATABASE_URL) kinds.push('postgres')
  const stores: StoreReport[] = []
  for (const kind of kinds) stores.push(await benchStore(kind))
  const { text, allMet } = report(stores)
  const cpu = cpus()
  const header = [
    `## Plant Store benchmark${quick ? ' (--quick: short runs and 1/10 of the data; figures are not meaningful)' : ''}`,
    '',
    `- command: \`npm run bench${quick ? ' -- --quick' : ''}\`${process.env.BENCH_DATABASE_URL ? ' with BENCH_DATABASE_URL set' : ''}`,
    `- date: ${new Date().toISOString()}`,
    `- machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`,
    `- load: autocannon, ${CONNECTIONS} keep-alive connections, ${WARMUP_SECONDS} s warm-up discarded, ${MEASURE_SECONDS} s measured, ` +
      `${ROUNDS} alternating round(s) of service and baseline per scenario`,
    '- service: defaults of `npm start` (auth, ownership, validation, metrics, request logging to a pipe, durable commits)',
    '- baseline: bare node:http that reads the body, JSON.parses it and writes a fixed JSON answer',
    '',
  ].join('\n')
  const output = `${header}\n${text}\n${allMet ? `Every target of the default store (${DEFAULT_STORE}) met.` : `Some targets of the default store (${DEFAULT_STORE}) were MISSED.`}\n`
  process.stdout.write(output)
  mkdirSync(join(REPO_ROOT, 'bench', 'results'), { recursive: true })
  writeFileSync(join(REPO_ROOT, 'bench', 'results', quick ? 'quick.md' : 'latest.md'), output)
}

await main()
