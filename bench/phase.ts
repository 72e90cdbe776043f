import { runLoad } from './load.js'
import { freshFixedLoopMs, freshLoopbackRoundTripUs } from './machine.js'
import { CONNECTIONS, LIST } from './scenarios.js'
import { startBaseline } from './start-baseline.js'

/**
 * `npm run bench:phase`: in about ten seconds, whether the machine is now in a phase where the
 * full bench's p99 targets can be met, read off what decides it: how fast the bare baseline
 * serves `list` at the bench's 50 connections.
 */
const WARMUP_SECONDS = 2
const MEASURE_SECONDS = 5
/**
 * Of the full runs whose baseline `list` docs/PERFORMANCE.md gives, none slower than this met every
 * p99; of the fourteen at least this fast, ten did and four missed one p99, by 0.5 to 2 ms.
 */
const P99_PHASE_REQUESTS_PER_SECOND = 48_000

const loopMs = freshFixedLoopMs()
const roundTripUs = freshLoopbackRoundTripUs()
const baseline = await startBaseline()
try {
  const options = {
    url: baseline.url,
    connections: CONNECTIONS,
    serverPid: baseline.process.pid as number,
    requests: LIST.requests(),
  }
  await runLoad({ ...options, seconds: WARMUP_SECONDS })
  const { requestsPerSecond, p99 } = await runLoad({ ...options, seconds: MEASURE_SECONDS })
  const fast = requestsPerSecond >= P99_PHASE_REQUESTS_PER_SECOND
  console.log(`fixed loop ${loopMs.toFixed(1)} ms, loopback round trip ${roundTripUs.toFixed(1)} µs`)
  console.log(`baseline list: ${requestsPerSecond.toFixed(0)} req/s at ${CONNECTIONS} connections, p99 ${p99} ms`)
  console.log(
    `${fast ? 'fast' : 'slow'} phase: no full run on record whose baseline list ran under ${P99_PHASE_REQUESTS_PER_SECOND} req/s ` +
      'met every p99 target; most at or above it did (docs/PERFORMANCE.md)',
  )
} finally {
  baseline.process.kill('SIGTERM')
}
