import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fc from 'fast-check'
import { createLogger, RequestLogController } from '../src/logging.js'
import { writeRequestLine } from '../src/request-line.js'

function capturingLogger(level = 'info') {
  const lines: string[] = []
  const logger = createLogger(level, { write: (line: string) => lines.push(line) })
  return { logger, lines }
}

/** The time is the only part of two lines written a moment apart that may differ. */
const withoutTime = (line: string | undefined) => line?.replace(/,"time":[0-9]+/, ',"time":0')

// Printable ASCII (a client's X-Request-Id), any well-formed string, Latin-1 (a URL as Node reads it).
const outcomes = fc.record({
  reqId: fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 128 })),
  method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'OPTIONS'),
  url: fc.oneof(
    fc.string({ maxLength: 300, unit: 'grapheme' }),
    fc.string({ maxLength: 300, unit: fc.integer({ min: 0, max: 255 }).map((code) => String.fromCharCode(code)) }),
  ),
  remoteAddress: fc.option(fc.oneof(fc.ipV4(), fc.ipV6()), { nil: undefined }),
  statusCode: fc.integer({ min: 100, max: 599 }),
  responseTime: fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constant(Number.NaN)),
})

test("the request line is byte for byte the line pino's info() writes for the same fields", () => {
  fc.assert(
    fc.property(outcomes, (outcome) => {
      const { logger, lines } = capturingLogger()
      logger.info({ ...outcome }, 'request completed')
      const request = { id: outcome.reqId, method: outcome.method, url: outcome.url, ip: outcome.remoteAddress as string }
      writeRequestLine(logger, request, { statusCode: outcome.statusCode, elapsedTime: outcome.responseTime })
      assert.equal(lines.length, 2)
      assert.equal(withoutTime(lines[1]), withoutTime(lines[0]))
    }),
    { numRuns: 500 },
  )
})

test('a completed request writes its line only while the level lets info through', () => {
  const request = { id: 'r-1', method: 'GET', url: '/plants?limit=20', ip: '127.0.0.1' } as FastifyRequest
  const reply = { statusCode: 200, elapsedTime: 1.25 } as FastifyReply
  const controller = new RequestLogController()
  const { logger, lines } = capturingLogger('warn')
  Object.assign(request, { server: { log: logger } })
  controller.requestCompleted(null, request, reply)
  assert.equal(lines.length, 0)
  logger.level = 'info'
  controller.requestCompleted(null, request, reply)
  assert.equal(lines.length, 1)
  assert.deepEqual(
    { ...(JSON.parse(lines[0] as string) as Record<string, unknown>), time: 0, pid: 0, hostname: '' },
    {
      level: 30,
      time: 0,
      pid: 0,
      hostname: '',
      reqId: 'r-1',
      method: 'GET',
      url: '/plants?limit=20',
      remoteAddress: '127.0.0.1',
      statusCode: 200,
      responseTime: 1.25,
      msg: 'request completed',
    },
  )
})
