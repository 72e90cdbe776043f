import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { TurnBatchedDestination } from '../src/log-destination.js'
import { REPO_ROOT, tempFolder } from './helpers/service.js'

test('lines of one turn reach the file whole, in order, in writes of at most maxWrite bytes', async () => {
  const folder = tempFolder()
  try {
    const file = join(folder.path, 'log')
    const destination = new TurnBatchedDestination(openSync(file, 'w'), 4096)
    const writes: number[] = []
    destination.sonic.on('write', (bytes: number) => writes.push(bytes))
    const lines = Array.from({ length: 300 }, (_, i) => `{"line":${i},"text":"${'é'.repeat(40)}"}\n`)
    for (const line of lines) destination.write(line)
    await new Promise((resolve) => setTimeout(resolve, 200))
    await new Promise<void>((resolve, reject) => destination.flush((error) => (error ? reject(error) : resolve())))
    assert.equal(readFileSync(file, 'utf8'), lines.join(''))
    assert.ok(writes.length > 1, 'more than one write')
    assert.ok(Math.max(...writes) <= 4096, `writes of ${writes.join(', ')} bytes`)
    destination.sonic.end()
  } finally {
    folder.remove()
  }
})

test('lines logged just before process.exit() are all written, in order, while the thread pool is busy', async () => {
  // The one thread of the pool is busy hashing, so a write handed to it at exit would land
  // after the synchronous ones, or never.
  const script = `
    import { pbkdf2 } from 'node:crypto'
    import { pino } from 'pino'
    import { TurnBatchedDestination } from './dist/src/log-destination.js'
    pbkdf2('password', 'salt', 1_000_000, 32, 'sha256', () => {})
    const logger = pino({}, new TurnBatchedDestination(1, 16384))
    for (let i = 0; i < 1000; i++) logger.info({ i }, 'before exit')
    process.exit(0)
  `
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { cwd: REPO_ROOT, env: { ...process.env, UV_THREADPOOL_SIZE: '1' } },
      (error, out) => (error ? reject(error) : resolve(out)),
    )
  })
  const numbers = stdout.trim().split('\n').map((line) => (JSON.parse(line) as { i: number }).i)
  assert.deepEqual(numbers, Array.from({ length: 1000 }, (_, i) => i))
})
