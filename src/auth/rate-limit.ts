import rateLimit from '@fastify/rate-limit'
import type { Redis } from 'ioredis'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { tooManyRequests } from '../http/errors.js'

/**
 * Counts the request against its caller's budget, says what is left in the draft RateLimit
 * headers, and throws a 429 when the budget is used up.
 */
export type RequestLimiter = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

/** A Redis that has not answered a command within this time is down: the request goes on unlimited. */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000

/**
 * Whether the shared counters work: the first failure (refused, silent past the timeout, or a
 * refused write: a read-only replica, maxmemory) is logged once, and so is the first count after.
 */
class RedisHealth {
  private down = false

  constructor(private readonly log: FastifyInstance['log']) {}

  failed(error: unknown): void {
    if (this.down) return
    this.down = true
    this.log.warn({ err: error }, 'rate-limit store (Redis) unavailable; requests are not limited meanwhile')
  }

  counted(): void {
    if (!this.down) return
    this.down = false
    this.log.warn('rate-limit store (Redis) answers again; requests are limited again')
  }
}

/** A Redis client that fails fast while Redis is down, refused or silent, rather than queueing or waiting. */
async function connectRedis(url: string, app: FastifyInstance, health: RedisHealth): Promise<Redis> {
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, {
    connectTimeout: REDIS_COMMAND_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: false,
  })
  redis.on('error', (error: Error) => health.failed(error))
  app.addHook('onClose', async () => {
    redis.disconnect()
  })
  return redis
}

/**
 * `perMinute` requests per minute per token, and per client address for requests without a
 * valid token (so that guessing tokens is limited too). Call it once the principal is known.
 * With Redis the counters are shared, so the limit holds across instances; while Redis cannot
 * count, requests are not limited (the API does not go down with it).
 */
export async function createRequestLimiter(app: FastifyInstance, perMinute: number, redisUrl: string | null): Promise<RequestLimiter> {
  const health = new RedisHealth(app.log)
  const redis = redisUrl === null ? undefined : await connectRedis(redisUrl, app, health)
  // Errors reach the limiter below, which tells the operator and lets the request go on.
  await app.register(rateLimit, { global: false, redis, nameSpace: 'plantstore:rate-limit:', skipOnError: false })
  const check = app.createRateLimit({
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => (request.principal === null ? `address:${request.ip}` : `token:${request.principal.tokenId}`),
  })
  return async (request, reply) => {
    let result: Awaited<ReturnType<typeof check>>
    try {
      result = await check(request)
    } catch (error) {
      health.failed(error)
      return
    }
    health.counted()
    if (result.isAllowed) return
    // IETF draft-ietf-httpapi-ratelimit-headers names: clients can pace themselves before a 429.
    reply.header('ratelimit-limit', String(result.max))
    reply.header('ratelimit-remaining', String(result.remaining))
    reply.header('ratelimit-reset', String(result.ttlInSeconds))
    if (result.isExceeded) {
      throw tooManyRequests(perMinute, result.ttlInSeconds)
    }
  }
}
