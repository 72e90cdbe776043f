import rateLimit from '@fastify/rate-limit'
import type { Redis } from 'ioredis'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from '../http/errors.js'

/**
 * Counts the request against its caller's budget, says what is left in the draft RateLimit
 * headers, and throws a 429 when the budget is used up.
 */
export type RequestLimiter = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

/** A Redis client that fails fast while Redis is down rather than queueing commands. */
async function connectRedis(url: string, app: FastifyInstance): Promise<Redis> {
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, {
    connectTimeout: 1_000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: false,
  })
  let warned = false
  redis.on('error', (error: Error) => {
    if (!warned) app.log.warn({ err: error }, 'rate-limit store (Redis) unavailable; requests are not limited meanwhile')
    warned = true
  })
  redis.on('ready', () => {
    warned = false
  })
  app.addHook('onClose', async () => {
    redis.disconnect()
  })
  return redis
}

/**
 * `perMinute` requests per minute per token, and per client address for requests without a
 * valid token (so that guessing tokens is limited too). Call it once the principal is known.
 * With Redis the counters are shared, so the limit holds across instances.
 */
export async function createRequestLimiter(app: FastifyInstance, perMinute: number, redisUrl: string | null): Promise<RequestLimiter> {
  const redis = redisUrl === null ? undefined : await connectRedis(redisUrl, app)
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: 'plantstore:rate-limit:',
    // A Redis outage must not take the API down with it: the limit is skipped (and logged) meanwhile.
    skipOnError: true,
  })
  const check = app.createRateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => (request.principal === null ? `address:${request.ip}` : `token:${request.principal.tokenId}`),
  })
  return async (request, reply) => {
    const result = await check(request)
    if (result.isAllowed) return
    // IETF draft-ietf-httpapi-ratelimit-headers names: clients can pace themselves before a 429.
    reply.header('ratelimit-limit', String(result.max))
    reply.header('ratelimit-remaining', String(result.remaining))
    reply.header('ratelimit-reset', String(result.ttlInSeconds))
    if (result.isExceeded) {
      throw new HttpError(429, `too many requests: the limit is ${perMinute} a minute; retry later`, {
        'retry-after': String(result.ttlInSeconds),
      })
    }
  }
}
