import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { test } from 'node:test'
import { promisify } from 'node:util'
import { REPO_ROOT } from '../support/service.js'
import { wholeLineChunks } from '../src/observability/turn-batched-destination.js'

const run = promisify(execFile)
const LOGGER = join(REPO_ROOT, 'dist', 'src', 'observability', 'logger.js')

/** A process that logs `count` lines in bursts over a few turns, then exits at once, as on the shutdown deadline. */
const script = (count: number) => `
  const { createLogger } = await import(${JSON.stringify(LOGGER)})
  const logger = createLogger('info')
  for (let i = 0; i < ${count}; i++) {
    logger.info({ n: i, padding: 'x'.repeat(i % 300) }, 'line')
    if (i % 400 === 399) await new Promise((resolve) => setImmediate(resolve))
  }
  process.exit(0)
`

// An asynchronous write still under way at exit lands after what exit writes synchronously, so
// the last lines may come out of order (each line has its time); none may be lost or cut.
test('every line logged before process.exit() is written, each one whole', async () => {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script(3_000)], { maxBuffer: 64 * 1024 * 1024 })
  const lines = stdout.trimEnd().split('\n')
  const numbers = lines.map((line) => (JSON.parse(line) as { n: number }).n).sort((a, b) => a - b)
  assert.deepEqual(
    numbers,
    Array.from({ length: 3_000 }, (_, i) => i),
  )
})

test('lines are joined into chunks of whole lines within the write size; a longer line is a chunk of its own', () => {
  const lines = ['a'.repeat(5) + '\n', 'b'.repeat(5) + '\n', 'c'.repeat(20) + '\n', 'd\n']
  assert.deepEqual(wholeLineChunks(lines, 12), ['aaaaa\nbbbbb\n', 'c'.repeat(20) + '\n', 'd\n'])
  assert.deepEqual(wholeLineChunks(['é\n', 'é\n'], 5), ['é\n', 'é\n'], 'bytes, not characters, are counted')
  assert.deepEqual(wholeLineChunks([], 12), [])
})
