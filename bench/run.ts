import { mkdirSync, writeFileSync } from 'node:fs'
import { get } from 'node:http'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { type TestDatabase, seedPlants } from '../support/databases.js'
import { REPO_ROOT, type Service, makeToken, startService, tempFolder } from '../support/service.js'
import { Receiver } from '../support/receiver.js'
import { type DeliveryLatency, deliveryLatency } from './deliveries.js'
import { type LoadResult, residentMemory, runLoad } from './load.js'
import { startBaseline } from './start-baseline.js'
import { benchOverload } from './overload.js'
import { benchResponsiveness } from './responsiveness.js'
import { loadReport } from './load-report.js'
import { CONNECTIONS, CREATE, LIST, MIXED, PATCH, type Scenario } from './scenarios.js'
import { type Comparison, DEFAULT_STORE, type StoreReport, p99Cell, report, shownRatio } from './report.js'
import { subscription } from './service-api.js'
import {
  DELIVERY_RATE,
  DELIVERY_SECONDS,
  IDLE_SETTLE_MS,
  LARGE,
  MEASURE_SECONDS,
  OWNERS,
  ROUNDS,
  SMALL_STORE,
  WARMUP_SECONDS,
  WEBHOOK_ENV,
  WEBHOOK_LABEL,
  WORKERS_LABEL,
  quick,
} from './settings.js'

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length

/**
 * `create` with one subscription whose receiver (a bare node:http process, like the baseline)
 * answers at once; then delivery at a steady rate, timed to a receiver in this process.
 */
async function benchWebhooks(
  service: Service,
  target: Target,
  baseline: Target,
  manager: string,
): Promise<{ comparison: Comparison; delivery: DeliveryLatency }> {
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
      // The lister's own seeded plants, renamed in turn.
      await compare('patch', { url: service.url, pid, token: lister }, baseTarget, PATCH),
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

async function main(): Promise<void> {
  const kinds: ('sqlite' | 'postgres')[] = ['sqlite']
  if (process.env.BENCH_DATABASE_URL) kinds.push('postgres')
  const stores: StoreReport[] = []
  for (const kind of kinds) stores.push(await benchStore(kind))
  const throughput = report(stores)
  const load = loadReport(await benchResponsiveness(), await benchOverload())
  const text = `${throughput.text}\n${load.text}`
  const allMet = throughput.allMet && load.allMet
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
