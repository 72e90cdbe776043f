import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { HttpError } from './errors.js'

/** Throws a 429 when the caller of this request has used up its budget. */
export type RequestLimiter = (request: FastifyRequest) => Promise<void>

/**
 * `perMinute` requests per minute per token, and per client address for requests without a
 * valid token (so that guessing tokens is limited too). Call it once the principal is known.
 */
export async function createRequestLimiter(app: FastifyInstance, perMinute: number): Promise<RequestLimiter> {
  await app.register(rateLimit, { global: false })
  const check = app.createRateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) =>
      request.principal === null ? `address:${request.ip}` : `token:${request.principal.tokenId}`,
  })
  return async (request) => {
    const result = await check(request)
    if (!result.isAllowed && result.isExceeded) {
      throw new HttpError(429, `too many requests: the limit is ${perMinute} a minute; retry later`, {
        'retry-after': String(result.ttlInSeconds),
      })
    }
  }
}
