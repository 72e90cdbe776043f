import assert from 'node:assert/strict'
import { type RequestListener, createServer } from 'node:http'
import { connect } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { type FrontProxy, haproxyInstalled, startFrontProxy } from '../support/front-proxy.js'
import { type Service, makeToken, startService, tempFolder } from '../support/service.js'

const haproxyMissing = haproxyInstalled() ? false : 'no haproxy on PATH (apt-get install haproxy)'
if (haproxyMissing && process.env.CI === 'true') throw new Error(`the front proxy's tests need HAProxy under CI: ${haproxyMissing}`)

/** A stand-in instance on a free port of 127.0.0.1, to see what the proxy sends it. */
async function backend(handler: RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

describe('deploy/front/haproxy.cfg in front of an instance', { skip: haproxyMissing }, () => {
  const folder = tempFolder()
  let service: Service
  let token: string
  let front: FrontProxy

  before(async () => {
    const databaseUrl = `sqlite:${join(folder.path, 'front.db')}`
    token = await makeToken(databaseUrl, 'front-proxy')
    service = await startService({ DATABASE_URL: databaseUrl })
    front = await startFrontProxy(service.url, folder.path)
  })

  after(async () => {
    await front?.stop()
    await service?.stop()
    folder.remove()
  })

  test('passes a request to the instance', async () => {
    const response = await fetch(`${front.url}/plants?limit=1`, { headers: { authorization: `Bearer ${token}` } })
    assert.equal(response.status, 200)
    assert.deepEqual(await response.json(), [])
    // The instance's hint (72 s) is not the front's: it closes idle clients at 60 s.
    assert.equal(response.headers.get('keep-alive'), null)
  })

  test('reads a slow body whole before it asks the instance, so a slow upload holds none of its places', async () => {
    let arrived = 0
    const counting = await backend((request, response) => {
      if (request.url === '/plants') arrived += 1
      response.end('{}')
    })
    const proxy = await startFrontProxy(counting.url, folder.path)
    const { hostname, port } = new URL(proxy.url)
    const socket = connect(Number(port), hostname)
    try {
      await new Promise((resolve) => socket.once('connect', resolve))
      const body = '{"id":1,"name":"slow"}'
      socket.write(
        `POST /plants HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
      )
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      assert.equal(arrived, 0, 'the instance was asked before the body had come')
      const answered = new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(String(chunk))))
      socket.write(body.slice(5))
      assert.match(await answered, /^HTTP\/1\.1 200 /)
      assert.equal(arrived, 1)
    } finally {
      socket.destroy()
      await proxy.stop()
      await counting.close()
    }
  })

  test('replaces a forged X-Forwarded-For and -Proto with what it saw, so that the instance cannot be lied to', async () => {
    const seen: string[] = []
    const echo = await backend((request, response) => {
      if (request.url === '/plants') seen.push(`${request.headers['x-forwarded-for']} ${request.headers['x-forwarded-proto']}`)
      response.end('{}')
    })
    const proxy = await startFrontProxy(echo.url, folder.path)
    try {
      const response = await fetch(`${proxy.url}/plants`, { headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' } })
      assert.equal(response.status, 200)
      assert.deepEqual(seen, ['127.0.0.1 http'])
    } finally {
      await proxy.stop()
      await echo.close()
    }
  })

  test('answers 502 in the Error body with an X-Request-Id when the instance closes without an answer', async () => {
    const closing = await backend((request, response) => {
      if (request.url === '/readyz' || request.url === '/healthz') response.end('{"status":"ok"}')
      else request.socket.destroy()
    })
    const proxy = await startFrontProxy(closing.url, folder.path)
    try {
      const response = await fetch(`${proxy.url}/plants`, { method: 'POST', body: '{"id":1,"name":"x"}' })
      assert.equal(response.status, 502)
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/)
      assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/)
      assert.deepEqual(Object.keys((await response.json()) as object), ['error', 'message'])
    } finally {
      await proxy.stop()
      await closing.close()
    }
  })

  test('answers 503 with Retry-After and the Error body once a request has waited `timeout queue` for a free connection', async () => {
    // An instance that is ready but never answers a request for plants: once one is under way, its
    // one connection (maxconn 1) stays taken.
    const held = await backend((request, response) => {
      if (request.url === '/readyz' || request.url === '/healthz') response.end('{"status":"ok"}')
    })
    const capped = await startFrontProxy(held.url, folder.path, { maxconn: 1 })
    const first = new AbortController()
    try {
      const taking = fetch(`${capped.url}/plants`, { signal: first.signal }).catch(() => null)
      await new Promise((resolve) => setTimeout(resolve, 200))
      const started = performance.now()
      const response = await fetch(`${capped.url}/plants`)
      const waitedMs = performance.now() - started
      assert.equal(response.status, 503)
      assert.equal(response.headers.get('retry-after'), '1')
      assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/)
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/)
      const body = (await response.json()) as { error: number; message: string }
      assert.equal(body.error, 503)
      assert.match(body.message, /try again in 1 s/)
      // The shipped `timeout queue` is 2 s (its `timeout connect`, which HAProxy would use
      // without it, 5 s): a refusal neither at once nor after the client gave up.
      assert.ok(waitedMs >= 1_800 && waitedMs < 3_500, `refused after ${waitedMs.toFixed(0)} ms`)
      first.abort()
      await taking
    } finally {
      await capped.stop()
      await held.close()
    }
  })
})
