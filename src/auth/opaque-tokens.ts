import type { TokenRecords } from '../store/tokens.js'
import type { Authenticator, Principal } from './principal.js'
import { hashToken } from './tokens.js'

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
    private readonly tokens: TokenRecords,
    private readonly now: () => number = Date.now,
  ) {}

  authenticate(token: string, tokens: TokenRecords = this.tokens): Principal | null | Promise<Principal | null> {
    const hash = hashToken(token)
    const now = this.now()
    const cached = this.cache.get(hash)
    if (cached === undefined || now - cached.fetchedAt >= TOKEN_CACHE_MS) return this.lookUp(tokens, hash, now)
    return validAt(cached, now)
  }

  private async lookUp(tokens: TokenRecords, hash: string, now: number): Promise<Principal | null> {
    this.cache.delete(hash)
    const record = await tokens.findByHash(hash)
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
