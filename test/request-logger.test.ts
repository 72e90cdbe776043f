import assert from 'node:assert/strict'
import { test } from 'node:test'
import { pino } from 'pino'
import { LazyRequestLogger } from '../src/request-logger.js'

function memoryLogger(level = 'info') {
  const lines: Record<string, unknown>[] = []
  const logger = pino({ level, base: null, timestamp: false }, { write: (line: string) => lines.push(JSON.parse(line)) })
  return { logger, lines }
}

test('no child is made until something logs, and then its lines carry the bindings', () => {
  const { logger, lines } = memoryLogger()
  const children: unknown[] = []
  const child = logger.child.bind(logger)
  logger.child = ((...args: Parameters<typeof logger.child>) => {
    children.push(args[0])
    return child(...args)
  }) as typeof logger.child
  const requestLogger = new LazyRequestLogger(logger, { reqId: 'r-1' }, {})
  assert.equal(requestLogger.level, 'info')
  assert.equal(children.length, 0, 'no child before a line')
  requestLogger.error({ err: new Error('disk full') }, 'request failed')
  requestLogger.debug('below the level')
  requestLogger.warn('again')
  assert.deepEqual(children, [{ reqId: 'r-1' }], 'one child, made once')
  assert.deepEqual(
    lines.map((line) => [line.level, line.reqId, line.msg]),
    [
      [50, 'r-1', 'request failed'],
      [40, 'r-1', 'again'],
    ],
  )
  assert.equal((lines[0]?.err as { message?: string }).message, 'disk full')
})

test("a child's own level, and children of it, behave as pino's", () => {
  const { logger, lines } = memoryLogger()
  const requestLogger = new LazyRequestLogger(logger, { reqId: 'r-2' }, { level: 'warn' })
  assert.equal(requestLogger.level, 'warn')
  requestLogger.info('dropped at warn')
  requestLogger.level = 'debug'
  requestLogger.debug('kept at debug')
  requestLogger.child({ part: 'store' }).info('from a grandchild')
  assert.deepEqual(
    lines.map((line) => [line.reqId, line.part, line.msg]),
    [
      ['r-2', undefined, 'kept at debug'],
      ['r-2', 'store', 'from a grandchild'],
    ],
  )
})
