import assert from 'node:assert/strict'
import { type ClientRequest, request } from 'node:http'
import { after, before, describe, test } from 'node:test'
import { seedPlants } from '../support/databases.js'
import { type ServiceFixture, startFixture } from './helpers/fixture.js'
import { probe } from './helpers/health-probe.js'

const COUNT = 300_000
/** The longest wait allowed, as a share of the time the big request took. */
const SHARE = 0.25
/**
 * Sends `GET url`; `headers` resolves once the headers have arrived, `whole` once the body has,
 * with the times since the request in milliseconds.
 */
function timedGet(url: string, token: string) {
  const start = performance.now()
  let headersArrived: (ms: number) => void = () => {}
  const headers = new Promise<number>((resolve) => (headersArrived = resolve))
  const whole = new Promise<{ status: number; headersMs: number; totalMs: number; bytes: number }>((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` }, timeout: 120_000 }, (res) => {
      const headersMs = performance.now() - start
      headersArrived(headersMs)
      let bytes = 0
      res.on('data', (chunk: Buffer) => (bytes += chunk.length))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headersMs, totalMs: performance.now() - start, bytes }))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', reject)
    req.end()
  })
  return { headers, whole }
}

/** A reader that asks for the list and then reads nothing: the server's socket buffer fills. */
function stalledReader(url: string, token: string): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` } }, () => resolve(req))
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)))
    req.end()
  })
}

describe(`a list of ${COUNT} plants on sqlite, while /healthz is asked every 10 ms`, () => {
  let fx: ServiceFixture
  let token: string

  before(async () => {
    fx = await startFixture('sqlite')
    token = await fx.token('bulk')
    await seedPlants(fx.db, { owner: 'bulk', firstId: 1n, count: COUNT, name: (i) => `plant ${i}` })
  })
  after(() => fx.close())

  test('sent whole to a fast reader and to three that read nothing, /healthz waits a fraction of its time at most', async () => {
    const health = probe(fx.service.url)
    const stalled = await Promise.all([1, 2, 3].map(() => stalledReader(`${fx.service.url}/plants`, token)))
    try {
      const list = await timedGet(`${fx.service.url}/plants`, token).whole
      const report = await health.stop()
      assert.equal(list.status, 200)
      assert.ok(list.bytes > COUNT * 15, `the whole list came (${list.bytes} bytes)`)
      console.log(
        `list of ${COUNT}: ${list.totalMs.toFixed(0)} ms; /healthz meanwhile: ${report.answers} answers, max ${report.maxMs.toFixed(1)} ms`,
      )
      assert.deepEqual([...report.statuses.keys()], [200])
      assert.ok(
        report.maxMs < list.totalMs * SHARE,
        `/healthz waited ${report.maxMs.toFixed(0)} ms, over ${SHARE} of the list's ${list.totalMs.toFixed(0)} ms`,
      )
    } finally {
      await health.stop()
      for (const req of stalled) req.destroy()
    }
  })

  test('with a limit of two million, /healthz waits a fraction of the time to the first byte at most', async () => {
    // Before the first byte the service finds the page's last id: an index walk as long as the limit.
    const health = probe(fx.service.url)
    try {
      const list = timedGet(`${fx.service.url}/plants?limit=2000000`, token)
      const headersMs = await list.headers
      const report = await health.stop()
      const { status, totalMs } = await list.whole
      assert.equal(status, 200)
      console.log(
        `limit=2000000 over ${COUNT}: headers after ${headersMs.toFixed(0)} ms, whole after ${totalMs.toFixed(0)} ms; ` +
          `/healthz until the headers: ${report.answers} answers, max ${report.maxMs.toFixed(1)} ms`,
      )
      assert.ok(
        report.maxMs < headersMs * 2 * SHARE,
        `/healthz waited ${report.maxMs.toFixed(0)} ms, over ${2 * SHARE} of the ${headersMs.toFixed(0)} ms to the headers`,
      )
    } finally {
      await health.stop()
    }
  })
})
