import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
import fc from 'fast-check'
import { TurnBatchedDestination, wholeLineChunks } from '../src/log-destination.js'
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

test('chunks hold whole lines, in order, each at most maxWrite bytes unless it is one longer line', () => {
  // Both the normal path and the exit path write these chunks; the exit path's writes cannot be watched.
  const line = fc.string({ maxLength: 200, unit: 'grapheme' }).map((text) => `${text.replaceAll('\n', ' ')}\n`)
  fc.assert(
    fc.property(fc.array(line, { maxLength: 60 }), fc.integer({ min: 1, max: 5000 }), (lines, maxWrite) => {
      const chunks = wholeLineChunks(lines, maxWrite)
      assert.deepEqual(chunks.flatMap((chunk) => chunk.split(/(?<=\n)/)), lines)
      for (const chunk of chunks) {
        const oneLine = chunk.indexOf('\n') === chunk.length - 1
        assert.ok(Buffer.byteLength(chunk) <= maxWrite || oneLine, `a chunk of ${Buffer.byteLength(chunk)} bytes`)
      }
      for (const [index, chunk] of chunks.slice(1).entries()) {
        const previous = chunks[index] as string
        const firstLine = chunk.slice(0, chunk.indexOf('\n') + 1)
        assert.ok(Buffer.byteLength(previous + firstLine) > maxWrite, 'no chunk is cut short')
      }
    }),
    { numRuns: 500 },
  )
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
