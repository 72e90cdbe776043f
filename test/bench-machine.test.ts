import assert from 'node:assert/strict'
import { test } from 'node:test'
import { freshFixedLoopMs, freshLoopbackRoundTripUs, parseCpuTimes, readCpuTimes, stolenPercent } from '../bench/machine.js'

test('stolen time is the steal column’s share of all CPU time between two readings of /proc/stat', () => {
  // user nice system idle iowait irq softirq steal guest guest_nice
  const before = parseCpuTimes('cpu  100 0 50 800 10 0 20 20 0 0\ncpu0 50 0 25 400 5 0 10 10 0 0\n')
  const after = parseCpuTimes('cpu  300 0 100 1300 10 0 40 70 30 0\ncpu0 150 0 50 650 5 0 20 35 15 0\n')
  assert.deepEqual(before, { steal: 20, total: 1000 })
  // guest time is already inside user time, so it adds nothing to the total.
  assert.deepEqual(after, { steal: 70, total: 1820 })
  assert.equal(stolenPercent(before, after), (100 * 50) / 820)
  assert.equal(stolenPercent(after, after), 0)
})

test('this machine’s /proc/stat reads as CPU times that only grow', { skip: process.platform !== 'linux' }, () => {
  const first = readCpuTimes()
  const second = readCpuTimes()
  assert.ok(first && second)
  assert.ok(first.total > 0 && first.steal >= 0)
  assert.ok(second.total >= first.total && second.steal >= first.steal)
})

test('the fixed loop timed in a fresh process comes back as the milliseconds that process printed', () => {
  const ms = freshFixedLoopMs()
  assert.ok(Number.isFinite(ms) && ms > 0, `got ${ms}`)
  // fixed-loop.js prints one decimal; a value read back from anything else would rarely be so.
  assert.equal(ms, Number(ms.toFixed(1)))
})

test('a loopback round trip timed in a fresh process comes back as the microseconds that process printed', () => {
  const us = freshLoopbackRoundTripUs()
  assert.ok(Number.isFinite(us) && us > 0, `got ${us}`)
  assert.equal(us, Number(us.toFixed(1)))
})
