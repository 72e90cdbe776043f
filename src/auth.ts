import type { FastifyReply, FastifyRequest } from 'fastify'
import { HttpError } from './errors.js'
import type { RequestLimiter } from './rate-limit.js'
import type { PlantStore } from './store/store.js'
import { hashToken, type Scope } from './tokens.js'

/** Who is calling, as established from the bearer token. */
export interface Principal {
  subject: string
  scopes: ReadonlySet<Scope>
  tokenId: string
}

/**
 * Token in, principal out (null when the token is not valid now): at once when the answer is
 * known in memory, else as a promise. JWT verification will fit here too.
 */
export interface Authenticator {
  authenticate(token: string): Principal | null | Promise<Principal | null>
}

/** How long a looked-up token is trusted without asking the store again: the bound on revocation. */
export const TOKEN_CACHE_MS = 2_000
const TOKEN_CACHE_ENTRIES = 10_000

interface CachedToken {
  principal: Principal
  expiresAt: number | null
  fetchedAt: number
}

/**
 * Opaque `pst_` tokens, looked up by their SHA-256 hash: no secret is ever compared in
 * JavaScript. Valid tokens are kept for TOKEN_CACHE_MS, so a revocation takes effect on every
 * instance within that time; unknown tokens are never kept, so guessing cannot fill the cache.
 */
export class OpaqueTokenAuthenticator implements Authenticator {
  private readonly cache = new Map<string, CachedToken>()

  constructor(
    private readonly store: PlantStore,
    private readonly now: () => number = Date.now,
  ) {}

  authenticate(token: string): Principal | null | Promise<Principal | null> {
    const hash = hashToken(token)
    const now = this.now()
    const cached = this.cache.get(hash)
    if (cached === undefined || now - cached.fetchedAt >= TOKEN_CACHE_MS) return this.lookUp(hash, now)
    return validAt(cached, now)
  }

  private async lookUp(hash: string, now: number): Promise<Principal | null> {
    this.cache.delete(hash)
    const record = await this.store.findTokenByHash(hash)
    if (record === null || record.revokedAt !== null) return null
    const cached = {
      principal: { subject: record.subject, scopes: new Set(record.scopes), tokenId: String(record.id) },
      expiresAt: record.expiresAt?.getTime() ?? null,
      fetchedAt: now,
    }
    if (this.cache.size >= TOKEN_CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string)
    this.cache.set(hash, cached)
    return validAt(cached, now)
  }
}

const validAt = (cached: CachedToken, now: number): Principal | null =>
  cached.expiresAt !== null && cached.expiresAt <= now ? null : cached.principal

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null
  }
  interface FastifyContextConfig {
    /** The scope a token needs for this route. */
    scope?: Scope
  }
}

const REALM = 'Bearer realm="plantstore"'

const unauthorized = (message: string, challenge = REALM) =>
  new HttpError(401, message, { 'www-authenticate': challenge })

/** The credentials of an `Authorization: Bearer <token>` header (scheme case-insensitive), else null. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null
  const match = /^bearer +(\S+) *$/i.exec(header)
  return match ? (match[1] as string) : null
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
    const token = bearerToken(request.headers.authorization)
    const principal = token === null ? null : authenticator.authenticate(token)
    if (principal instanceof Promise) {
      principal.then((found) => admit(request, token, found, limit, done), done)
    } else {
      admit(request, token, principal, limit, done)
    }
  }
}

function admit(
  request: FastifyRequest,
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
  limit(request).then(() => done(accessError(request, token, principal)), done)
}

/** Why the request may not go on, or undefined when it may. */
function accessError(request: FastifyRequest, token: string | null, principal: Principal | null): HttpError | undefined {
  if (token === null) return unauthorized('a bearer token is required: send Authorization: Bearer <token>')
  if (principal === null) {
    return unauthorized(
      'the bearer token is unknown, expired or revoked',
      `${REALM}, error="invalid_token", error_description="the token is unknown, expired or revoked"`,
    )
  }
  const scope = request.routeOptions.config.scope
  if (scope !== undefined && !principal.scopes.has(scope)) {
    return new HttpError(403, `this token lacks the scope ${scope}`, {
      'www-authenticate': `${REALM}, error="insufficient_scope", scope="${scope}"`,
    })
  }
  return undefined
}

/** The owner whose plants a principal may reach, or null for every owner (`plants:admin`). */
export function visibleOwner(principal: Principal): string | null {
  return principal.scopes.has('plants:admin') ? null : principal.subject
}
