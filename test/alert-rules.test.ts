import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { promisify } from 'node:util'
import { parse } from 'yaml'
import { STORE_KINDS } from '../support/databases.js'
import { Receiver, pause } from '../support/receiver.js'
import { REPO_ROOT } from '../support/service.js'
import { buildFixture } from './helpers/in-process.js'

// The alert rules of deploy/prometheus/, checked with the tools Prometheus users trust
// (promtool), and against the metrics the service really serves: a renamed metric or label
// breaks the build, not the pager.

const run = promisify(execFile)
const RULES = join(REPO_ROOT, 'deploy', 'prometheus')

async function promtoolReason(): Promise<string | null> {
  try {
    await run('promtool', ['--version'])
    return null
  } catch {
    return 'promtool is not installed (apt-get install prometheus)'
  }
}
const missing = await promtoolReason()
/** Without promtool the rule tests are skipped, but never in CI. */
export const PROMTOOL_SKIP = missing !== null && process.env.CI !== 'true' ? missing : false

interface Rule {
  record?: string
  alert?: string
  expr: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
}
const groups = (parse(readFileSync(join(RULES, 'alerts.yml'), 'utf8')) as { groups: { rules: Rule[] }[] }).groups
const rules = groups.flatMap((group) => group.rules)

/** The series names and label names an expression reads (recording rules' own names excepted). */
function selectorsOf(expr: string): { metrics: Set<string>; labels: Set<string> } {
  const metrics = new Set<string>()
  const labels = new Set<string>()
  let rest = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\[[^\]]*\]/g, '')
  rest = rest.replace(/\{([^}]*)\}/g, (_all, matchers: string) => {
    for (const [, name] of matchers.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)) labels.add(name as string)
    return ' '
  })
  rest = rest.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_all, _word, names: string) => {
    for (const name of names.split(',').map((one) => one.trim())) if (name !== '') labels.add(name)
    return ' '
  })
  // A name not followed by "(" (a function) that is no keyword and no recording rule (those hold a colon).
  for (const [token] of rest.matchAll(/\b[a-zA-Z_][a-zA-Z0-9_:]*\b(?!\s*\()/g)) {
    if (!/^(and|or|unless|bool|offset)$/.test(token) && !token.includes(':')) metrics.add(token)
  }
  return { metrics, labels }
}

/** Names and label names of the samples a /metrics text holds. */
function exposed(text: string): { metrics: Set<string>; labels: Set<string> } {
  const metrics = new Set<string>()
  const labels = new Set<string>()
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})?\s/.exec(line)
    if (match === null) continue
    metrics.add(match[1] as string)
    for (const [, name] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)) labels.add(name as string)
  }
  return { metrics, labels }
}

/** What Prometheus adds itself: the scrape's health and the target's labels. */
const FROM_PROMETHEUS = { metrics: ['up'], labels: ['job', 'instance'] }

describe('the alert rules, with promtool', { skip: PROMTOOL_SKIP }, () => {
  test('promtool check rules finds every rule valid', async () => {
    const { stdout } = await run('promtool', ['check', 'rules', join(RULES, 'alerts.yml')])
    assert.match(stdout, /SUCCESS: \d+ rules found/)
  })

  test('promtool test rules: each alert fires on its series and stays quiet on the other', async () => {
    const { stdout, stderr } = await run('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: RULES })
    assert.match(stdout + stderr, /SUCCESS/)
    const cases = readFileSync(join(RULES, 'alerts.test.yml'), 'utf8')
    for (const rule of rules.filter((one) => one.alert !== undefined)) {
      const name = rule.alert as string
      assert.match(cases, new RegExp(`alertname: ${name}\\n\\s+exp_alerts:\\n\\s+- exp_labels`), `${name} has a case that fires it`)
      assert.match(cases, new RegExp(`alertname: ${name}\\n\\s+exp_alerts: \\[\\]`), `${name} has a case that must not fire`)
    }
  })

  test('promtool check config accepts the example prometheus.yml', async () => {
    const { stdout } = await run('promtool', ['check', 'config', join(RULES, 'prometheus.yml')])
    assert.match(stdout, /is valid prometheus config file syntax/)
  })
})

describe('the alert rules against the service', () => {
  test('every alert has a severity, a summary, a description and a runbook section of docs/metrics-and-alerts.md', () => {
    const operations = readFileSync(join(REPO_ROOT, 'docs', 'metrics-and-alerts.md'), 'utf8')
    const anchors = new Set(
      [...operations.matchAll(/^#+ (.+)$/gm)].map((heading) =>
        (heading[1] as string)
          .toLowerCase()
          .replace(/[^a-z0-9 -]/g, '')
          .replace(/ /g, '-'),
      ),
    )
    const alerts = rules.filter((rule) => rule.alert !== undefined)
    assert.ok(alerts.length >= 10)
    for (const rule of alerts) {
      assert.match(rule.labels?.severity ?? '', /^(page|ticket)$/, `${rule.alert} severity`)
      assert.ok(rule.annotations?.summary && rule.annotations.description, `${rule.alert} summary and description`)
      const anchor = /^docs\/metrics-and-alerts\.md#(.+)$/.exec(rule.annotations.runbook ?? '')?.[1]
      assert.ok(
        anchor !== undefined && anchors.has(anchor),
        `${rule.alert}'s runbook ${rule.annotations.runbook} is a heading of metrics-and-alerts.md`,
      )
    }
  })

  test('every counter with known label values serves each at 0 before its first event: an increase() sees the first one', async () => {
    const fx = await buildFixture('sqlite', { JWT_ISSUER: 'http://127.0.0.1:9/issuer', JWT_AUDIENCE: 'api' })
    try {
      const text = (await fx.app.inject({ method: 'GET', url: '/metrics' })).body
      for (const series of [
        'webhook_deliveries_total{outcome="delivered"}',
        'webhook_deliveries_total{outcome="retried"}',
        'webhook_deliveries_total{outcome="given_up"}',
        'webhook_deliveries_total{outcome="disabled"}',
        'webhook_subscriptions_disabled_total{reason="gone"}',
        'webhook_subscriptions_disabled_total{reason="failing"}',
        'jwt_verifications_total{result="valid"}',
        'jwt_verifications_total{result="invalid"}',
        'jwt_verifications_total{result="keys_unavailable"}',
        'jwks_fetches_total{result="success"}',
        'jwks_fetches_total{result="failure"}',
      ]) {
        assert.ok(text.split('\n').includes(`${series} 0`), `${series} is served at 0 from the start`)
      }
    } finally {
      await fx.close()
    }
  })

  test('every metric and label the rules read is served at /metrics (both stores, after real traffic)', async () => {
    const served = { metrics: new Set(FROM_PROMETHEUS.metrics), labels: new Set(FROM_PROMETHEUS.labels) }
    for (const kind of STORE_KINDS) {
      // On SQLite, Litestream's metrics address too (nothing listens there): the replication lag is served.
      const litestream: Record<string, string> = kind === 'sqlite' ? { LITESTREAM_METRICS_ADDR: '127.0.0.1:1' } : {}
      const fx = await buildFixture(kind, { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_DELAYS: '50ms', ...litestream })
      const failing = await Receiver.start()
      const gone = await Receiver.start()
      try {
        failing.answer = () => ({ status: 500 })
        gone.answer = () => ({ status: 410 })
        const token = await fx.token('observed', '--scope', 'plants:read,plants:write,webhooks:manage')
        for (const url of [failing.url(), gone.url()]) await fx.api.request('POST', '/webhooks', { token, json: { url } })
        assert.equal((await fx.api.createPlant(token, { id: 1n, name: 'watched' })).status, 200)
        await fx.api.request('GET', '/plants', { token })
        // One event given up after its retry, one subscription disabled by its 410.
        await failing.until((received) => received.length >= 2)
        await gone.until((received) => received.length >= 1)
        await pause(500)
        const text = (await fx.app.inject({ method: 'GET', url: '/metrics' })).body
        const { metrics, labels } = exposed(text)
        for (const name of metrics) served.metrics.add(name)
        for (const name of labels) served.labels.add(name)
        assert.match(text, /webhook_deliveries_total\{outcome="given_up"\} 1/)
      } finally {
        await failing.close()
        await gone.close()
        await fx.close()
      }
    }
    for (const rule of rules) {
      const { metrics, labels } = selectorsOf(rule.expr)
      for (const metric of metrics)
        assert.ok(served.metrics.has(metric), `${rule.alert ?? rule.record} reads ${metric}, which /metrics does not serve`)
      for (const label of labels)
        assert.ok(served.labels.has(label), `${rule.alert ?? rule.record} reads the label ${label}, which /metrics does not serve`)
    }
  })
})
