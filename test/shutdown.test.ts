import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { describe, test } from 'node:test'
import { Api } from './helpers/api.js'
import { STORE_KINDS, seedPlants } from '../support/databases.js'
import { startFixture } from './helpers/fixture.js'
import { startService } from '../support/service.js'

for (const kind of STORE_KINDS) {
  describe(`graceful stop on ${kind}`, () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      test(`${signal} with requests in flight: they complete, new connections are refused, exit 0`, async () => {
        const fx = await startFixture(kind)
        const reader = await fx.token('big-reader')
        await seedPlants(fx.db, { owner: 'big-reader', firstId: 1n, count: 50_000, name: (i) => `plant ${i}` })
        // Headers have arrived but the 50,000-plant body has not been read: the request is in flight.
        const inFlight = await fetch(`${fx.service.url}/plants`, { headers: { authorization: `Bearer ${reader}` } })
        assert.equal(inFlight.status, 200)
        // A create whose body is still arriving when the signal comes: in flight, so it must complete.
        const slowCreate = connect(Number(new URL(fx.service.url).port), '127.0.0.1')
        const slowAnswer = new Promise<string>((resolve) => {
          let text = ''
          slowCreate.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
          slowCreate.on('close', () => resolve(text))
        })
        const body = '{"id":100000,"name":"slow"}'
        slowCreate.write(
          `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${fx.adminToken}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
        )
        await new Promise((resolve) => setTimeout(resolve, 200))
        const exited = fx.service.stop(signal)
        const started = Date.now()
        const plants = JSON.parse(await inFlight.text()) as unknown[]
        assert.equal(plants.length, 50_000)
        await new Promise((resolve) => setTimeout(resolve, 100))
        const late = await fetch(`${fx.service.url}/healthz`).then(
          (response) => response.status,
          () => 'refused',
        )
        assert.ok(late === 'refused' || late === 503, `a request after the signal got ${late}`)
        slowCreate.write(body.slice(10))
        assert.match(await slowAnswer, /^HTTP\/1.1 200 /)
        assert.equal(await exited, 0)
        assert.ok(Date.now() - started < 10_000)

        const restarted = await startService({ DATABASE_URL: fx.db.url })
        try {
          const api = await Api.connect(restarted.url)
          assert.deepEqual(await api.listPlants(fx.adminToken, '?after=99999'), [{ name: 'slow' }])
        } finally {
          await restarted.stop()
        }
        await fx.db.drop()
      })
    }
  })
}

for (const kind of STORE_KINDS) {
  describe(`graceful stop under load on ${kind}`, () => {
    test('SIGTERM while 50 connections write: each request is answered or refused cleanly, and nothing acknowledged is lost', async () => {
      const fx = await startFixture(kind)
      const writer = await fx.token('busy')
      const acknowledged = new Set<string>()
      const outcomes = { ok: 0, refused503: 0, connectionRefused: 0, other: [] as string[] }
      let nextId = 1
      let stopping = false
      const worker = async () => {
        for (;;) {
          const id = nextId++
          let response: Response
          try {
            response = await fetch(`${fx.service.url}/plants`, {
              method: 'POST',
              headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
              body: `{"id":${id},"name":"busy ${id}"}`,
            })
          } catch {
            // Closed or refused before the request was read: not acknowledged, and the worker stops.
            outcomes.connectionRefused += 1
            return
          }
          const text = await response.text()
          if (response.status === 200) {
            outcomes.ok += 1
            acknowledged.add(`busy ${id}`)
          } else if (response.status === 503 && JSON.parse(text).error === 503) {
            outcomes.refused503 += 1
            if (stopping) return
          } else {
            outcomes.other.push(`${response.status} ${text}`)
          }
        }
      }
      const workers = Array.from({ length: 50 }, worker)
      await new Promise((resolve) => setTimeout(resolve, 700))
      stopping = true
      const exitCode = await fx.service.stop('SIGTERM')
      await Promise.all(workers)
      assert.equal(exitCode, 0)
      assert.deepEqual(outcomes.other, [], 'only 200, a 503 Error, or a refused connection')

      const restarted = await startService({ DATABASE_URL: fx.db.url })
      try {
        const api = await Api.connect(restarted.url)
        const stored = new Set((await api.listPlants(writer)).map((plant) => plant.name))
        const lost = [...acknowledged].filter((name) => !stored.has(name))
        console.log(
          `graceful stop under load on ${kind}: acknowledged ${acknowledged.size}, refused ${outcomes.refused503} with 503 ` +
            `and ${outcomes.connectionRefused} at the connection, lost ${lost.length}`,
        )
        assert.ok(acknowledged.size > 0)
        assert.deepEqual(lost, [])
      } finally {
        await restarted.stop()
        await fx.db.drop()
      }
    })
  })
}
