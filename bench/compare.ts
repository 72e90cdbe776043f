import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { type CheckoutService, canPin, startCheckout } from './checkout-service.js'
import { CREATE, LIST, MIXED, type Scenario } from './scenarios.js'

/**
 * Main-thread CPU time per request of two or more builds of this project, started side by
 * side, pinned to the same core and driven at the same fixed rate at once: on a shared,
 * noisy machine the throughput of one run moves by ±15 %, while this figure stays within
 * ~1 % between identical builds. Each argument is a checkout that has been built
 * (`npm ci && npm run build` there, or a git worktree with node_modules).
 */
const { values: flags, positionals: checkouts } = parseArgs({
  allowPositionals: true,
  options: {
    scenario: { type: 'string', default: 'create' },
    rate: { type: 'string', default: '1500' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '5' },
  },
})
const scenarios: Record<string, Scenario> = { list: LIST, create: CREATE, mixed: MIXED }
const chosen = scenarios[flags.scenario as string]
if (chosen === undefined || checkouts.length < 1) {
  console.error('usage: npm run bench:compare -- [--scenario create|list|mixed] [--rate N] [--seconds N] [--rounds N] CHECKOUT...')
  process.exit(2)
}
const scenario: Scenario = chosen
const RATE = Number(flags.rate)
const SECONDS = Number(flags.seconds)
const ROUNDS = Number(flags.rounds)
const pinned = canPin()

interface Build extends CheckoutService {
  perRequest: number[]
}

/** Nanoseconds the process's main thread has run on a CPU (its first thread has the process's id). */
function mainThreadCpu(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0])
}

function drive(build: Build, seconds: number) {
  return autocannon({
    url: build.url,
    connections: 10,
    duration: seconds,
    overallRate: RATE,
    headers: { authorization: `Bearer ${build.token}` },
    requests: scenario.requests(),
  })
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

const builds: Build[] = []
try {
  for (const checkout of checkouts) builds.push({ ...(await startCheckout(resolve(checkout), { pinned, scenario })), perRequest: [] })
  console.error(`${flags.scenario} at ${RATE} req/s each, ${pinned ? 'services pinned to CPU 0' : 'taskset missing: services NOT pinned'}`)
  for (let round = 0; round < ROUNDS; round++) {
    await Promise.all(builds.map((build) => drive(build, 2)))
    const before = builds.map((build) => mainThreadCpu(build.child.pid as number))
    const results = await Promise.all(builds.map((build) => drive(build, SECONDS)))
    builds.forEach((build, i) => {
      const result = results[i] as autocannon.Result
      const perRequest = (mainThreadCpu(build.child.pid as number) - (before[i] as number)) / 1000 / result.requests.total
      build.perRequest.push(perRequest)
      console.log(
        `round ${round + 1}  ${build.checkout}  ${perRequest.toFixed(1)} µs/request  ` +
          `(${result.requests.total} requests, ${result.non2xx + result.errors} failed, p99 ${result.latency.p99} ms)`,
      )
    })
  }
  for (const build of builds) console.log(`median  ${build.checkout}  ${median(build.perRequest).toFixed(1)} µs/request`)
} finally {
  for (const build of builds) await build.stop()
}
