import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { POSTGRES_UNAVAILABLE, adminQuery, freshDatabase } from '../support/databases.js'
import { pause } from '../support/receiver.js'
import { freePort } from '../support/ports.js'
import { REPO_ROOT, type Service, makeToken, startService, tempFolder } from '../support/service.js'

// The availability alert against the real thing: a real Prometheus scraping a real instance,
// evaluating deploy/prometheus/alerts.yml, while the instance's database really stops.

async function prometheusReason(): Promise<string | null> {
  const child = spawn('prometheus', ['--version'], { stdio: 'ignore' })
  // Not events.once: its promise for 'exit' rejects when the spawn fails with 'error'.
  const code = await new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null))
    child.once('exit', resolve)
  })
  return code === 0 ? null : 'prometheus is not installed (apt-get install prometheus)'
}
const reasons = [await prometheusReason(), POSTGRES_UNAVAILABLE === null ? null : `no PostgreSQL server (${POSTGRES_UNAVAILABLE})`]
const reason = reasons.find((one) => one !== null) ?? null
const skip = reason !== null && process.env.CI !== 'true' ? reason : false

interface Alert {
  labels: { alertname: string }
  state: 'pending' | 'firing'
}

/** A Prometheus of the test's own, scraping `target` every second with the project's rules. */
async function startPrometheus(target: string): Promise<{ url: string; process: ChildProcess; stop(): Promise<void>; remove(): void }> {
  const folder = tempFolder()
  const port = await freePort()
  const config = join(folder.path, 'prometheus.yml')
  writeFileSync(
    config,
    [
      // A scrape may wait 1 s for the readiness ping: the timeout leaves room for it.
      'global: { scrape_interval: 2s, scrape_timeout: 2s, evaluation_interval: 1s }',
      `rule_files: ['${join(REPO_ROOT, 'deploy', 'prometheus', 'alerts.yml')}']`,
      `scrape_configs: [{ job_name: plantstore, static_configs: [{ targets: ['${target}'] }] }]`,
    ].join('\n'),
  )
  const child = spawn(
    'prometheus',
    [`--config.file=${config}`, `--storage.tsdb.path=${join(folder.path, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: 'ignore' },
  )
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 100; i++) {
    const ready = await fetch(`${url}/-/ready`).then(
      (answer) => answer.ok,
      () => false,
    )
    if (ready) break
    await pause(100)
  }
  return {
    url,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        await once(child, 'exit')
      }
    },
    remove: () => folder.remove(),
  }
}

async function alerts(prometheus: string): Promise<Alert[]> {
  const answer = (await (await fetch(`${prometheus}/api/v1/alerts`)).json()) as { data: { alerts: Alert[] } }
  return answer.data.alerts
}

async function query(prometheus: string, expr: string): Promise<number | null> {
  const answer = (await (await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent(expr)}`)).json()) as {
    data: { result: { value: [number, string] }[] }
  }
  const value = answer.data.result[0]?.value[1]
  return value === undefined ? null : Number(value)
}

/** Requests at a steady pace until `stop` is set: creates and lists, as users make them. */
function traffic(service: Service, token: string, stop: { now: boolean }): Promise<void> {
  let id = 1
  const lane = async () => {
    for (let i = 0; i < 10_000 && !stop.now; i++) {
      const create = fetch(`${service.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: `{"id":${id++},"name":"observed"}`,
      })
      const list = fetch(`${service.url}/plants?limit=10`, { headers: { authorization: `Bearer ${token}` } })
      for (const answer of await Promise.allSettled([create, list])) if (answer.status === 'fulfilled') await answer.value.text()
      await pause(50)
    }
  }
  return Promise.all([lane(), lane()]).then(() => undefined)
}

describe('the availability alert, live', { skip }, () => {
  test('is silent while the service is healthy, and goes pending or firing once its database stops', async () => {
    if (reason !== null) assert.fail(reason)
    const db = await freshDatabase('postgres')
    const name = new URL(db.url).pathname.slice(1)
    const service = await startService({ DATABASE_URL: db.url, PG_CONNECT_TIMEOUT_MS: '500' })
    const prometheus = await startPrometheus(new URL(service.url).host)
    const stop = { now: false }
    let load: Promise<void> = Promise.resolve()
    try {
      const token = await makeToken(db.url, 'watched')
      load = traffic(service, token, stop)
      // Healthy: the rules have data (the ratio is 0, not absent), and no availability alert.
      let ratio: number | null = null
      for (let i = 0; i < 60 && ratio === null; i++) {
        await pause(500)
        ratio = await query(prometheus.url, 'plantstore:plants_error_ratio:rate5m')
      }
      assert.equal(ratio, 0, 'the error ratio is recorded, and 0 while healthy')
      assert.equal(await query(prometheus.url, 'plantstore_ready'), 1)
      await pause(3_000)
      const healthy = (await alerts(prometheus.url)).filter((alert) => alert.labels.alertname.startsWith('PlantStoreAvailability'))
      assert.deepEqual(healthy, [], 'no availability alert while healthy')

      // The database stops taking connections, and those it had are cut.
      await adminQuery(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`)
      await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`)
      let fired: Alert | undefined
      for (let i = 0; i < 90 && fired === undefined; i++) {
        await pause(500)
        fired = (await alerts(prometheus.url)).find((alert) => alert.labels.alertname === 'PlantStoreAvailabilityBurnFast')
      }
      const seen = { up: await query(prometheus.url, 'up'), ratio: await query(prometheus.url, 'plantstore:plants_error_ratio:rate5m') }
      assert.ok(fired, `PlantStoreAvailabilityBurnFast went pending or firing within 45 s of the outage (${JSON.stringify(seen)})`)
      assert.ok(['pending', 'firing'].includes(fired.state))
      // /metrics still answers during the outage (it reads the database only where it may fail alone).
      assert.equal(seen.up, 1, 'the instance is still scraped while its database is down')
      assert.equal(await query(prometheus.url, 'plantstore_ready'), 0)
    } finally {
      stop.now = true
      await load
      await prometheus.stop()
      prometheus.remove()
      await service.stop()
      await adminQuery(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`)
      await db.drop()
    }
  })
})
