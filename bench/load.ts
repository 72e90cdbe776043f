import autocannon from 'autocannon'
import { readFileSync, readdirSync } from 'node:fs'

export interface LoadResult {
  requestsPerSecond: number
  p50: number
  p99: number
  /** Answers that were not the expected 2xx, and connection errors: a run with any is not a figure. */
  failures: number
  /** Peak resident memory of the server during the run (sampled VmRSS, its worker processes included), in bytes. */
  peakRss: number
}

export interface LoadOptions {
  url: string
  connections: number
  seconds: number
  requests: autocannon.Request[]
  headers?: Record<string, string>
  serverPid: number
}

export function residentMemory(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const match = new RegExp(`${field}:\\s+([0-9]+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match ? Number(match[1]) * 1024 : 0
}

/** The process's children (the workers of WORKERS), from every thread's list; [] once it has ended. */
function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    )
  } catch {
    return []
  }
}

/** Resident memory of the process and of its child processes, in bytes. */
export function treeMemory(pid: number): number {
  let total = 0
  for (const member of [pid, ...childPids(pid)]) {
    try {
      total += residentMemory(member)
    } catch {
      // A worker that ended between the listing and the read holds no memory.
    }
  }
  return total
}

/** Drives the server with autocannon over keep-alive connections, sampling its memory meanwhile. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let peakRss = treeMemory(options.serverPid)
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, treeMemory(options.serverPid))
  }, 100)
  try {
    const result = await autocannon({
      url: options.url,
      connections: options.connections,
      duration: options.seconds,
      headers: options.headers,
      requests: options.requests,
    })
    return {
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      failures: result.non2xx + result.errors + result.timeouts,
      peakRss,
    }
  } finally {
    clearInterval(sampler)
  }
}
