import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { tempFolder } from '../support/service.js'
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
const pinned = spawnSync('taskset', ['-c', '0', 'true']).status === 0

interface Build {
  checkout: string
  url: string
  token: string
  child: ChildProcess
  perRequest: number[]
  remove: () => void
}

/** Nanoseconds the process's main thread has run on a CPU (its first thread has the process's id). */
function mainThreadCpu(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0])
}

async function start(checkout: string): Promise<Build> {
  const folder = tempFolder()
  const env = { DATABASE_URL: `sqlite:${join(folder.path, 'compare.db')}` }
  const cli = join(checkout, 'bin', 'plantstore')
  const made = spawnSync(process.execPath, [cli, 'token', 'create', '--subject', 'compare'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  })
  if (made.status !== 0) throw new Error(`token create failed in ${checkout}: ${made.stderr}`)
  const command = [process.execPath, cli, 'serve']
  // taskset replaces itself with node, so the child's pid is the service's.
  const child = spawn(pinned ? 'taskset' : (command[0] as string), pinned ? ['-c', '0', ...command] : command.slice(1), {
    cwd: checkout,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const url = await new Promise<string>((resolveUrl, reject) => {
    let seen = ''
    const onData = (chunk: Buffer) => {
      seen += chunk.toString()
      const match = /Server listening at (http:\/\/127\.0\.0\.1:[0-9]+)/.exec(seen)
      if (match === null) return
      // From here the log is read and dropped, as a log collector would read it.
      child.stdout?.off('data', onData).resume()
      resolveUrl(match[1] as string)
    }
    child.stdout?.on('data', onData)
    child.once('exit', (code) => reject(new Error(`the service of ${checkout} exited with ${code}`)))
  })
  const token = made.stdout.trim()
  // The list scenario reads a first page of 20 of the caller's plants.
  for (let id = 1; scenario === LIST && id <= 100; id++) {
    await fetch(`${url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id, name: `plant ${id}` }),
    })
  }
  return { checkout, url, token, child, perRequest: [], remove: () => folder.remove() }
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
  for (const checkout of checkouts) builds.push(await start(resolve(checkout)))
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
  for (const build of builds) {
    build.child.kill('SIGTERM')
    await once(build.child, 'exit')
    build.remove()
  }
}
