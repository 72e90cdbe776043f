import assert from 'node:assert/strict'
import { test } from 'node:test'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { SharedTurnReads } from '../src/store/shared/shared-reads.js'

test('identical reads of one turn share one run; other keys get their own', async () => {
  const reads = new SharedTurnReads<string>()
  const runs: string[] = []
  const run = (key: string) => async () => {
    runs.push(key)
    return `answer of ${key}`
  }
  const answers = await Promise.all([
    reads.read('a', run('a')),
    reads.read('a', run('a')),
    reads.read('b', run('b')),
    reads.read('a', run('a')),
  ])
  assert.deepEqual(answers, ['answer of a', 'answer of a', 'answer of b', 'answer of a'])
  assert.deepEqual(runs, ['a', 'b'])
})

test("a read asked after its key's run has started gets a run of its own, even while that run is under way", async () => {
  const reads = new SharedTurnReads<number>()
  let runs = 0
  let finishFirst!: () => void
  const firstDone = new Promise<void>((resolve) => (finishFirst = resolve))
  const first = reads.read('page', async () => {
    runs++
    await firstDone
    return 1
  })
  await nextTurn()
  assert.equal(runs, 1, 'the first run started when its turn ended')
  const second = reads.read('page', async () => {
    runs++
    return 2
  })
  assert.equal(await second, 2)
  finishFirst()
  assert.equal(await first, 1)
  assert.equal(runs, 2)
})

test('a run that fails fails every read that shared it', async () => {
  const reads = new SharedTurnReads<number>()
  const failing = async (): Promise<number> => {
    throw new Error('database unavailable')
  }
  const outcomes = await Promise.allSettled([reads.read('x', failing), reads.read('x', failing)])
  assert.deepEqual(
    outcomes.map((outcome) => outcome.status),
    ['rejected', 'rejected'],
  )
})
