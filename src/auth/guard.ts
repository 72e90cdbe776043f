import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type HttpError, scopeMissing, severalTokens, tokenInvalid, tokenMissing } from '../http/errors.js'
import type { Authenticator, Principal } from './principal.js'
import type { RequestLimiter } from './rate-limit.js'
import type { Scope } from '../api/scopes.js'
import { guardedSchema } from '../api/responses.js'

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null
  }
  interface FastifyContextConfig {
    /** The scope a token needs for this route. */
    scope?: Scope
  }
}

/** The credentials of an `Authorization: Bearer <token>` header (scheme case-insensitive), else null. */
function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null
  const match = /^bearer +(\S+) *$/i.exec(header)
  return match ? (match[1] as string) : null
}

/**
 * A request that carries two credentials (two headers, of which Node keeps the first, or a
 * comma list: a token68 holds no comma) is refused: it would be authenticated as whichever was read.
 */
function severalCredentials(request: FastifyRequest): HttpError | undefined {
  const raw = request.raw.rawHeaders
  let headers = 0
  for (let index = 0; index < raw.length; index += 2) if (raw[index]?.toLowerCase() === 'authorization') headers += 1
  if (headers > 1 || (request.headers.authorization ?? '').includes(',')) return severalTokens()
  return undefined
}

/**
 * onRequest hook: runs before the body is read, so an unauthenticated client cannot make the
 * server parse anything. Over the rate limit 429, without a usable token 401, without the
 * route's scope 403. In callback style, so that a token known in memory costs no promise.
 */
export function requireToken(authenticator: Authenticator, limit: RequestLimiter | null) {
  return function checkToken(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    // Answers about a caller's plants, errors included, must not be stored by shared caches.
    reply.header('cache-control', 'no-store')
    const ambiguous = severalCredentials(request)
    if (ambiguous !== undefined) {
      if (limit === null) done(ambiguous)
      else limit(request, reply).then(() => done(ambiguous), done)
      return
    }
    const token = bearerToken(request.headers.authorization)
    const principal = token === null ? null : authenticator.authenticate(token, request.store.tokens)
    if (principal instanceof Promise) {
      principal.then(
        (found) => admit(request, reply, token, found, limit, done),
        // The token could not be checked (its provider or the database is down): the request is
        // still counted, by its client address, before it is refused.
        (error: Error) => (limit === null ? done(error) : limit(request, reply).then(() => done(error), done)),
      )
    } else {
      admit(request, reply, token, principal, limit, done)
    }
  }
}

function admit(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string | null,
  principal: Principal | null,
  limit: RequestLimiter | null,
  done: (error?: Error) => void,
): void {
  request.principal = principal
  if (limit === null) {
    done(accessError(request, token, principal))
    return
  }
  limit(request, reply).then(() => done(accessError(request, token, principal)), done)
}

/** Why the request may not go on, or undefined when it may. */
function accessError(request: FastifyRequest, token: string | null, principal: Principal | null): HttpError | undefined {
  if (token === null) return tokenMissing()
  if (principal === null) return tokenInvalid()
  const scope = request.routeOptions.config.scope
  if (scope !== undefined && !principal.scopes.has(scope)) return scopeMissing(scope)
  return undefined
}

/**
 * Puts every route registered in `scope` after this call behind a bearer token: the rate
 * limit (loaded only when RATE_LIMIT is set: the limiter and its Redis client cost ~20 MB of
 * memory), then 401 without a usable token, 403 without the route's scope.
 */
export async function guardWithToken(
  scope: FastifyInstance,
  { authenticator, rateLimit, redisUrl }: { authenticator: Authenticator; rateLimit: number; redisUrl: string | null },
): Promise<void> {
  scope.decorateRequest('principal', null)
  // The guard's part of each route's document: a route states only its own statuses.
  scope.addHook('onRoute', (route) => {
    const required = route.config?.scope
    if (required === undefined || route.schema === undefined) return
    route.schema = guardedSchema(route.schema, required, route.url.split('/')[1] ?? '')
  })
  const limit = rateLimit > 0 ? await (await import('./rate-limit.js')).createRequestLimiter(scope, rateLimit, redisUrl) : null
  scope.addHook('onRequest', requireToken(authenticator, limit))
}
