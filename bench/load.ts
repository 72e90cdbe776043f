import autocannon from 'autocannon'
import { readFileSync } from 'node:fs'

export interface LoadResult {
  requestsPerSecond: number
  p50: number
  p99: number
  /** Answers that were not the expected 2xx, and connection errors: a run with any is not a figure. */
  failures: number
  /** Peak resident memory of the server during the run (sampled VmRSS), in bytes. */
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

/** Drives the server with autocannon over keep-alive connections, sampling its memory meanwhile. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let peakRss = residentMemory(options.serverPid)
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, residentMemory(options.serverPid))
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
