import { readFileSync } from 'node:fs'

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
