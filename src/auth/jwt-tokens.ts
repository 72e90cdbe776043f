import { type JWTPayload, decodeJwt, errors, jwtVerify } from 'jose'
import { Counter, type Registry } from 'prom-client'
import { fromZero } from '../observability/collected-metrics.js'
import type { HasMetrics } from '../observability/metrics.js'
import type { JwtConfig } from '../config/config.js'
import type { Authenticator, Principal } from './principal.js'
import type { TokenRecords } from '../store/tokens.js'
import { ProviderKeys } from './provider-keys.js'
import { type Scope, isScope } from '../api/scopes.js'
import { hashToken } from './tokens.js'
import { HttpError } from '../http/errors.js'

/** Where the authenticator tells the operator of a key of the provider it cannot use. */
export type KeyWarning = (details: Record<string, unknown>, message: string) => void

const CACHE_ENTRIES = 10_000

interface Verified {
  principal: Principal
  /** `exp` in milliseconds: the cached answer is never kept past it. */
  expiresAt: number
}

/** Three dot-separated base64url parts: the compact form of a JWT (RFC 7519). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

export const looksLikeJwt = (token: string) => JWT_SHAPE.test(token)

/** The known scopes a token grants, from `scope` (space-separated) or `scp` (an array or a string). */
function scopesOf(payload: JWTPayload): Set<Scope> {
  const { scope, scp } = payload
  const granted = typeof scope === 'string' ? scope.split(' ') : typeof scp === 'string' ? scp.split(' ') : [scp].flat()
  return new Set(granted.filter((scope): scope is Scope => typeof scope === 'string' && isScope(scope)))
}

/**
 * JWT access tokens of an identity provider (RFC 9068), verified with jose against the
 * provider's keys: signature by a key of its JWKS with an allowed algorithm, exact issuer, our
 * audience, `exp`/`nbf` within the tolerance, and the `typ` asked for. A verified token is kept,
 * by the hash of the token and never past its `exp`, so a repeated token costs a hash and a
 * lookup, as an opaque one does.
 */
export class JwtAuthenticator implements Authenticator, HasMetrics {
  private readonly cache = new Map<string, Verified>()
  private readonly keys: ProviderKeys
  private readonly verifications = fromZero(
    new Counter({
      name: 'jwt_verifications_total',
      help: 'JWT access tokens verified (cached answers not counted), by result',
      labelNames: ['result'],
      registers: [],
    }),
    'result',
    ['valid', 'invalid', 'keys_unavailable'],
  )
  private readonly fetches = fromZero(
    new Counter({
      name: 'jwks_fetches_total',
      help: "Fetches of the identity provider's keys, by result",
      labelNames: ['result'],
      registers: [],
    }),
    'result',
    ['success', 'failure'],
  )

  /** The `kid`s of unusable keys already warned about: once each. */
  private readonly unusableKeys = new Set<string>()

  constructor(
    private readonly config: JwtConfig,
    private readonly now: () => number = Date.now,
    refetchAfterMs?: number,
    private readonly warn: KeyWarning = () => {},
  ) {
    this.keys = new ProviderKeys(config.issuer, config.jwksUrl, {
      onFetch: (result) => this.fetches.inc({ result }),
      onStateChange: (problem) =>
        problem === null
          ? this.warn({}, "the identity provider's keys can be fetched again")
          : this.warn({ ...problem }, "the identity provider's keys cannot be fetched: JWTs signed with a key not yet fetched answer 503"),
      // Each kept answer is checked again against the keys as they are now.
      onKeyRemoved: () => this.cache.clear(),
      ...(refetchAfterMs === undefined ? {} : { refetchAfterMs }),
      now,
    })
  }

  registerMetrics(registry: Registry): void {
    registry.registerMetric(this.verifications)
    registry.registerMetric(this.fetches)
  }

  authenticate(token: string): Principal | null | Promise<Principal | null> {
    const hash = hashToken(token)
    const cached = this.cache.get(hash)
    if (cached !== undefined) {
      this.keys.refreshIfStale()
      if (cached.expiresAt > this.now()) return cached.principal
      this.cache.delete(hash)
    }
    return this.verify(token, hash)
  }

  private async verify(token: string, hash: string): Promise<Principal | null> {
    // A token that names another issuer, or none, is refused before any key is asked for: junk
    // never makes the service fetch the provider, nor answer 503 while it is down.
    if (!this.namesOurIssuer(token)) {
      this.verifications.inc({ result: 'invalid' })
      return null
    }
    let payload: JWTPayload
    try {
      ;({ payload } = await jwtVerify(token, this.keys.resolve, {
        issuer: this.config.issuer,
        audience: this.config.audience,
        algorithms: this.config.algorithms,
        clockTolerance: this.config.clockToleranceS,
        currentDate: new Date(this.now()),
        requiredClaims: ['exp'],
        ...(this.config.typ === '' ? {} : { typ: this.config.typ }),
      }))
    } catch (error) {
      if (error instanceof HttpError) {
        this.verifications.inc({ result: 'keys_unavailable' })
        throw error
      }
      // Anything else jose refuses with is the token's fault or its key's (an RSA key under
      // 2048 bits, a curve it does not take): no signature can be checked, so the token is invalid.
      if (!(error instanceof errors.JOSEError)) this.warnOfKey(token, error)
      this.verifications.inc({ result: 'invalid' })
      return null
    }
    const subject = typeof payload.sub === 'string' ? payload.sub : payload.client_id
    // U+0000 cannot be a subject: PostgreSQL keeps no such text, and no store may differ.
    if (typeof subject !== 'string' || subject === '' || subject.includes('\u0000')) {
      this.verifications.inc({ result: 'invalid' })
      return null
    }
    this.verifications.inc({ result: 'valid' })
    const principal: Principal = { subject, scopes: scopesOf(payload), tokenId: `jwt:${hash.slice(0, 16)}` }
    if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string)
    this.cache.set(hash, { principal, expiresAt: (payload.exp as number) * 1000 })
    return principal
  }

  private namesOurIssuer(token: string): boolean {
    try {
      return decodeJwt(token).iss === this.config.issuer
    } catch {
      return false
    }
  }

  private warnOfKey(token: string, error: unknown): void {
    let kid = 'none'
    try {
      kid = String((JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as { kid?: unknown }).kid ?? 'none')
    } catch {
      // A header jose could not read is no key's fault; it is named 'none'.
    }
    if (this.unusableKeys.has(kid) || this.unusableKeys.size >= CACHE_ENTRIES) return
    this.unusableKeys.add(kid)
    this.warn(
      { kid: kid.slice(0, 100), reason: (error as Error).message },
      "a key of the identity provider's JWKS cannot be used; its tokens are refused",
    )
  }
}

/** Opaque `pst_` tokens and, when an identity provider is configured, its JWTs, told apart by shape. */
export class EitherTokenAuthenticator implements Authenticator {
  constructor(
    private readonly opaque: Authenticator,
    private readonly jwt: Authenticator,
  ) {}

  authenticate(token: string, tokens?: TokenRecords): Principal | null | Promise<Principal | null> {
    return looksLikeJwt(token) ? this.jwt.authenticate(token) : this.opaque.authenticate(token, tokens)
  }
}
