import { execFileSync } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { type AddressInfo, createConnection, createServer } from 'node:net'
import { fileURLToPath } from 'node:url'

/**
 * What the machine itself was like during a run, so that its slow and fast phases can be told
 * apart by more than the baseline's throughput: how much CPU time the hypervisor took, and how
 * fast a fixed piece of JavaScript ran.
 */

/** Whole-machine CPU time from the first line of /proc/stat, in clock ticks. */
export interface CpuTimes {
  steal: number
  total: number
}

/** The CPU times of the first line of a /proc/stat text. */
export function parseCpuTimes(stat: string): CpuTimes {
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = (stat.split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number)
  // guest and guest_nice, the columns after steal, are already counted in user and nice.
  return { steal, total: user + nice + system + idle + iowait + irq + softirq + steal }
}

/** The machine's CPU times so far, or undefined where /proc/stat does not exist (not Linux). */
export function readCpuTimes(): CpuTimes | undefined {
  try {
    return parseCpuTimes(readFileSync('/proc/stat', 'utf8'))
  } catch {
    return undefined
  }
}

/** The percentage of the machine's CPU time that the hypervisor took between two readings. */
export function stolenPercent(before: CpuTimes, after: CpuTimes): number {
  const total = after.total - before.total
  return total > 0 ? (100 * (after.steal - before.steal)) / total : 0
}

/**
 * Milliseconds a fixed integer loop takes, the best of three: pure CPU work with no system call
 * and no allocation, so a slower figure means a slower or busier core, not a slower kernel path.
 */
export function fixedLoopMs(): number {
  const iterations = 100_000_000
  let best = Number.POSITIVE_INFINITY
  for (let attempt = 0; attempt < 3; attempt++) {
    const start = process.hrtime.bigint()
    let sum = 0
    for (let i = 0; i < iterations; i++) sum = (sum + (i & 7)) | 0
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6
    // The result is used, so the loop cannot be optimised away: each 8 steps add 0 + 1 + … + 7.
    if (sum !== (iterations / 8) * 28) throw new Error(`the fixed loop summed to ${sum}`)
    best = Math.min(best, elapsed)
  }
  return best
}

/**
 * Microseconds per round trip of a 64-byte message over loopback TCP between a client and an
 * echo server of this process, the best of three batches: the kernel's network path and the
 * event loop's wake-ups, which every request of the bench goes through and the fixed loop does not.
 */
export async function loopbackRoundTripUs(): Promise<number> {
  const roundTrips = 5_000
  const message = Buffer.alloc(64, 1)
  const server = createServer({ noDelay: true }, (socket) => socket.on('data', (data) => socket.write(data)))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const client = createConnection({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', noDelay: true })
  await once(client, 'connect')
  let best = Number.POSITIVE_INFINITY
  for (let attempt = 0; attempt < 3; attempt++) {
    const start = process.hrtime.bigint()
    await new Promise<void>((resolve) => {
      let received = 0
      let left = roundTrips
      const onData = (data: Buffer): void => {
        // TCP may split an echo; a round trip ends when all 64 bytes are back.
        received += data.length
        if (received < message.length) return
        received = 0
        if (--left > 0) {
          client.write(message)
          return
        }
        client.off('data', onData)
        resolve()
      }
      client.on('data', onData)
      client.write(message)
    })
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e3 / roundTrips)
  }
  client.destroy()
  server.close()
  return best
}

/** A reading takes about a second; one that hangs (a socket that never answers) is ended. */
const READING_TIMEOUT_MS = 30_000

/**
 * What one of the reading scripts (`fixed-loop.js`, `loopback-round-trip.js`) prints, run in a
 * fresh Node.js process. In a process that has run other code, V8 may recompile the fixed loop
 * into code that runs it four times slower (seen in run 28: 72 ms on the first call, then 290 to
 * 330 on every later one), and the figure would describe the compiler, not the machine.
 */
function freshReading(script: string): number {
  const path = fileURLToPath(new URL(script, import.meta.url))
  const value = Number(execFileSync(process.execPath, [path], { encoding: 'utf8', timeout: READING_TIMEOUT_MS }).trim())
  if (!(value > 0)) throw new Error(`${script} printed no reading: ${value}`)
  return value
}

/** fixedLoopMs, timed in a fresh process, as `node dist/bench/fixed-loop.js` does. */
export const freshFixedLoopMs = (): number => freshReading('./fixed-loop.js')

/** loopbackRoundTripUs, in a fresh process, as `node dist/bench/loopback-round-trip.js` does. */
export const freshLoopbackRoundTripUs = (): number => freshReading('./loopback-round-trip.js')
