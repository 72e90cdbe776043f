import { Agent, request } from 'node:http'

export interface ProbeReport {
  /** Answers received while the probe ran. */
  answers: number
  /** The slowest answer, in milliseconds. */
  maxMs: number
  /** The statuses seen, each with how often. */
  statuses: Map<number, number>
}

/**
 * Sends `GET path` one after another (each `everyMs` after the last answer) until `stop` is
 * called, timing each answer: what a load balancer's health check would see meanwhile. Every
 * request is bounded by `timeoutMs`; one that times out counts as that long.
 */
export function probe(url: string, path = '/healthz', { everyMs = 10, timeoutMs = 60_000 } = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const report: ProbeReport = { answers: 0, maxMs: 0, statuses: new Map() }
  let stopped = false
  const once = () =>
    new Promise<void>((resolve) => {
      const start = performance.now()
      const done = (status: number) => {
        report.answers += 1
        report.maxMs = Math.max(report.maxMs, performance.now() - start)
        report.statuses.set(status, (report.statuses.get(status) ?? 0) + 1)
        resolve()
      }
      const req = request(`${url}${path}`, { agent, timeout: timeoutMs }, (res) => {
        res.resume()
        res.on('end', () => done(res.statusCode ?? 0))
        res.on('error', () => done(0))
      })
      req.on('timeout', () => req.destroy(new Error('timeout')))
      req.on('error', () => done(0))
      req.end()
    })
  const running = (async () => {
    while (!stopped) {
      await once()
      await new Promise((resolve) => setTimeout(resolve, everyMs))
    }
  })()
  return {
    report,
    /** Ends the probe once its request in flight is answered; resolves with the report. */
    async stop(): Promise<ProbeReport> {
      stopped = true
      await running
      agent.destroy()
      return report
    },
  }
}
