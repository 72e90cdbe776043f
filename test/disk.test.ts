import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, openSync, rmSync, rmdirSync, writeSync, closeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { Database } from '../src/store/sqlite/driver.js'
import { Api } from './helpers/api.js'
import { type Service, makeToken, startService } from '../support/service.js'

/** A 4 MiB tmpfs of this test's own, so that "disk full" is real and harms nothing else. */
function mountSmallDisk(): { path: string; unmount(): void } | string {
  const path = mkdtempSync(join(tmpdir(), 'plantstore-disk-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', path], { stdio: 'pipe' })
  } catch (error) {
    rmdirSync(path)
    return `cannot mount a tmpfs here (${(error as Error).message.split('\n')[0]}); run as root to include it`
  }
  return {
    path,
    unmount() {
      execFileSync('umount', [path])
      rmdirSync(path)
    },
  }
}

/** Writes zeros until the file system refuses: the disk is now full. */
function fillDisk(file: string): void {
  const fd = openSync(file, 'w')
  const block = Buffer.alloc(64 * 1024)
  try {
    for (;;) writeSync(fd, block)
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error
  } finally {
    closeSync(fd)
  }
}

/** Whether /readyz answers 200 within `ms`, asked every 100 ms. */
async function readyWithin(api: Api, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  for (;;) {
    if ((await api.request('GET', '/readyz')).status === 200) return true
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('SQLite whose write lock another process holds', () => {
  test('writes get 503, /readyz and plantstore_ready say not ready, and both recover once the lock is let go', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'plantstore-lock-'))
    const file = join(folder, 'plantstore.db')
    const service = await startService({ DATABASE_URL: `sqlite:${file}` })
    const holder = new Database(file)
    try {
      const api = await Api.connect(service.url)
      const token = await makeToken(`sqlite:${file}`, 'locked')
      assert.equal((await api.createPlant(token, { id: 1, name: 'before' })).status, 200)
      assert.equal((await api.request('GET', '/readyz')).status, 200)
      holder.exec('BEGIN IMMEDIATE')
      assert.equal((await api.createPlant(token, { id: 2, name: 'blocked' })).status, 503)
      for (let probe = 0; probe < 4; probe++) {
        assert.equal((await api.request('GET', '/readyz')).status, 503, 'not ready while it cannot write')
      }
      assert.match((await api.request<string>('GET', '/metrics')).body, /^plantstore_ready 0$/m)
      holder.exec('ROLLBACK')
      assert.equal(await readyWithin(api, 10_000), true, 'ready again once the lock is let go')
      assert.match((await api.request<string>('GET', '/metrics')).body, /^plantstore_ready 1$/m)
      assert.equal((await api.createPlant(token, { id: 3, name: 'after' })).status, 200)
      // The failed create is an error; a failed probe is not: one warning per change of state, no stack.
      const lines = service
        .stdout()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; code?: string; stack?: unknown; err?: unknown })
      assert.equal(lines.filter((line) => line.level >= 50).length, 1, 'one error line: the failed create')
      const notReady = lines.filter((line) => line.msg.startsWith('not ready'))
      assert.equal(notReady.length, 1, service.stdout())
      assert.equal(notReady[0]?.level, 40)
      assert.match(notReady[0]?.msg ?? '', /SQLITE_BUSY/)
      assert.equal(notReady[0]?.err, undefined, 'no stack')
      assert.equal(lines.filter((line) => line.level === 30 && line.msg.startsWith('ready again')).length, 1, service.stdout())
    } finally {
      holder.close()
      await service.stop()
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

const disk = mountSmallDisk()

describe('SQLite on a full disk', { skip: typeof disk === 'string' ? disk : false }, () => {
  let service: Service
  let api: Api
  let token: string
  const mounted = disk as { path: string; unmount(): void }
  const url = `sqlite:${join(mounted.path, 'plantstore.db')}`

  before(async () => {
    service = await startService({ DATABASE_URL: url })
    api = await Api.connect(service.url)
    token = await makeToken(url, 'filler')
  })
  after(async () => {
    await service.stop()
    mounted.unmount()
  })

  test('writes get a 503 Error and a log line while the disk is full, reads go on, and writes work again once there is room', async () => {
    assert.equal((await api.createPlant(token, { id: 1, name: 'before' })).status, 200)
    const filler = join(mounted.path, 'filler')
    fillDisk(filler)
    // A few writes, so that one surely needs a new page of the WAL.
    const during = []
    for (let id = 2; id < 40; id++) during.push((await api.createPlant(token, { id, name: `during ${id} ${'x'.repeat(190)}` })).status)
    assert.ok(during.includes(503), `statuses while full: ${during.join(',')}`)
    assert.deepEqual(
      [...new Set(during)].filter((status) => status !== 200 && status !== 503),
      [],
    )
    const log = await service.waitForLog((stdout) => stdout.split('\n').filter((line) => line.includes('SQLITE_FULL')).length >= 2)
    const fullLines = log
      .split('\n')
      .filter((line) => line.includes('SQLITE_FULL'))
      .map((line) => JSON.parse(line) as { reqId?: unknown; msg?: string })
    // The store's own error line goes through request.log, whose child logger is made only then.
    const storeLines = fullLines.filter((line) => line.msg !== 'request errored' && line.msg !== 'request completed')
    assert.ok(storeLines.length > 0, service.stdout())
    for (const line of fullLines) assert.equal(typeof line.reqId, 'string', JSON.stringify(line))
    assert.equal((await api.request('GET', '/plants?limit=1', { token })).status, 200, 'reads still work')

    assert.equal((await api.request('GET', '/readyz')).status, 503, 'not ready while the disk is full')
    assert.match((await api.request<string>('GET', '/metrics')).body, /^plantstore_ready 0$/m)

    rmSync(filler)
    assert.equal(await readyWithin(api, 10_000), true, 'ready again once there is room')
    const afterwards = await api.createPlant(token, { id: 100, name: 'after' })
    assert.equal(afterwards.status, 200, afterwards.text)
    const names = (await api.listPlants(token)).map((plant) => plant.name)
    assert.ok(names.includes('before') && names.includes('after'))
    console.log(
      `disk full: ${during.filter((status) => status === 503).length} of ${during.length} writes refused with 503, then recovered`,
    )
  })
})
