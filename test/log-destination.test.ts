import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import { pino } from 'pino'
import { TurnBatchedDestination } from '../src/log-destination.js'
import { REPO_ROOT, tempFolder } from './helpers/service.js'

test('lines of one turn reach the file whole, in order, in writes of at most maxWrite bytes', async () => {
  const folder = tempFolder()
  try {
    const file = join(folder.path, 'log')
    const sonic = pino.destination({ dest: file, sync: false, maxWrite: 4096 })
    const writes: number[] = []
    sonic.on('write', (bytes: number) => writes.push(bytes))
    const destination = new TurnBatchedDestination(sonic, 4096)
    const lines = Array.from({ length: 300 }, (_, i) => `{"line":${i},"text":"${'é'.repeat(40)}"}\n`)
    for (const line of lines) destination.write(line)
    await new Promise((resolve) => setTimeout(resolve, 200))
    await new Promise<void>((resolve, reject) => destination.flush((error) => (error ? reject(error) : resolve())))
    assert.equal(readFileSync(file, 'utf8'), lines.join(''))
    assert.ok(writes.length > 1, 'more than one write')
    assert.ok(Math.max(...writes) <= 4096, `writes of ${writes.join(', ')} bytes`)
    sonic.end()
  } finally {
    folder.remove()
  }
})

test('lines logged just before process.exit() are still written', async () => {
  const script = `
    import { pino } from 'pino'
    import { TurnBatchedDestination } from './dist/src/log-destination.js'
    const logger = pino({}, new TurnBatchedDestination(pino.destination({ dest: 1, sync: false }), 16384))
    for (let i = 0; i < 1000; i++) logger.info({ i }, 'before exit')
    process.exit(0)
  `
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT }, (error, out) => (error ? reject(error) : resolve(out)))
  })
  const numbers = stdout.trim().split('\n').map((line) => (JSON.parse(line) as { i: number }).i)
  assert.deepEqual(numbers, Array.from({ length: 1000 }, (_, i) => i))
})
