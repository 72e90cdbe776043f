import underPressure from '@fastify/under-pressure'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { OverloadLimits } from '../config/config.js'
import { errorBody } from './errors.js'
import { InFlightPlaces, type Place } from './in-flight-places.js'

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
  const places = new InFlightPlaces(limits.maxInFlight)
  scope.decorateRequest('inFlightPlace', null)
  // Callback style, like the app's other per-request hooks: an async hook costs a promise each.
  scope.addHook('onRequest', (request, reply, next) => {
    const place = places.take()
    if (place === null) {
      refuse(reply, 'too many requests under way')
      return
    }
    request.inFlightPlace = place
    next()
  })
  scope.addHook('onSend', (request, _reply, payload, done) => {
    if (request.inFlightPlace !== null) places.release(request.inFlightPlace)
    done(null, payload)
  })
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Its place among the requests under way, when the overload bound admitted it. */
    inFlightPlace: Place | null
  }
}
