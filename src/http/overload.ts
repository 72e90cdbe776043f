import underPressure from '@fastify/under-pressure'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { OverloadLimits } from '../config/config.js'
import { errorBody } from './errors.js'

/** What a client refused for overload is told to wait, in seconds. */
export const OVERLOAD_RETRY_AFTER_S = 1
const SAMPLE_EVERY_MS = 1_000

function refuse(reply: FastifyReply, why: string): FastifyReply {
  return reply
    .code(503)
    .header('retry-after', String(OVERLOAD_RETRY_AFTER_S))
    .send(errorBody(503, `the service is overloaded (${why}); try again in ${OVERLOAD_RETRY_AFTER_S} s`))
}

/**
 * Sheds what the service cannot serve soon, before any token lookup or database call: a request
 * beyond `maxInFlight` under way, or any while the event loop lags past `maxEventLoopDelayMs`
 * (@fastify/under-pressure), is answered 503 with Retry-After at once instead of queueing for
 * seconds. Registered on the API's scope only: /healthz, /readyz and /metrics always answer.
 */
export async function shedOverload(scope: FastifyInstance, limits: OverloadLimits): Promise<void> {
  if (limits.maxEventLoopDelayMs > 0) {
    await scope.register(underPressure, {
      maxEventLoopDelay: limits.maxEventLoopDelayMs,
      sampleInterval: SAMPLE_EVERY_MS,
      retryAfter: OVERLOAD_RETRY_AFTER_S,
      pressureHandler: (_request, reply) => {
        refuse(reply, 'event loop delay')
      },
    })
  }
  if (limits.maxInFlight <= 0) return
  let inFlight = 0
  const release = () => {
    inFlight -= 1
  }
  // Callback style, like the app's other per-request hooks: an async hook costs a promise each.
  scope.addHook('onRequest', (_request, reply, next) => {
    if (inFlight >= limits.maxInFlight) {
      refuse(reply, 'too many requests under way')
      return
    }
    inFlight += 1
    // Once per admitted request: 'close' comes when its answer is sent and also when its connection
    // ends first, at any stage. onRequestAbort misses a client that leaves after its body was read,
    // and onResponse never comes for it: each such request kept its place, until all were taken.
    reply.raw.once('close', release)
    next()
  })
}
