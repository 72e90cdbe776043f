import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { request } from 'node:http'

/** Latencies of the small requests a prober sent, in milliseconds, and those that failed. */
export interface ProbeReport {
  answers: number
  failures: number
  p99: number
  max: number
}

/** One GET on a fresh connection: what a load balancer's check or a user's click pays. */
function timedGet(url: string, headers: Record<string, string>): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now()
  return new Promise((resolve) => {
    const req = request(url, { headers, agent: false }, (response) => {
      response.resume()
      response.on('end', () => resolve({ ms: performance.now() - started, ok: response.statusCode === 200 }))
    })
    req.on('error', () => resolve({ ms: performance.now() - started, ok: false }))
    req.end()
  })
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0

/**
 * Sends each of `urls` in turn every `everyMs`, without waiting for an answer before the next is
 * due (a stalled service shows as long waits, not as fewer samples), until `stop`.
 */
export function startProbe(urls: { url: string; headers?: Record<string, string> }[], everyMs = 10) {
  const timings: Promise<{ ms: number; ok: boolean }>[] = []
  let turn = 0
  const timer = setInterval(() => {
    const target = urls[turn++ % urls.length] as { url: string; headers?: Record<string, string> }
    timings.push(timedGet(target.url, target.headers ?? {}))
  }, everyMs)
  return {
    async stop(): Promise<ProbeReport> {
      clearInterval(timer)
      const results = await Promise.all(timings)
      const sorted = results.map((result) => result.ms).sort((a, b) => a - b)
      return {
        answers: results.length,
        failures: results.filter((result) => !result.ok).length,
        p99: percentile(sorted, 0.99),
        max: sorted.at(-1) ?? 0,
      }
    },
  }
}

/** `startProbe` in a child process: what the load generator does in this one cannot delay it. */
export async function startProbeProcess(urls: { url: string; headers?: Record<string, string> }[]) {
  const child = fork(fileURLToPath(new URL('./probe-process.js', import.meta.url)), [JSON.stringify(urls)])
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve())
    child.once('error', reject)
  })
  return {
    stop(): Promise<ProbeReport> {
      return new Promise((resolve, reject) => {
        child.once('message', (report) => resolve(report as ProbeReport))
        child.once('exit', (code) => reject(new Error(`the prober exited with ${code} before it reported`)))
        child.send('stop')
      })
    },
  }
}
