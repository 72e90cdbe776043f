import {
  type JWSHeaderParameters,
  type FlattenedJWSInput,
  type RemoteJWKSet,
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
} from 'jose'
import { providerKeysUnreachable } from '../http/errors.js'

/** An unknown `kid` refetches the keys at most this often; after a failed fetch, the cached keys serve this long. */
const REFETCH_AFTER_MS = 30_000
const FETCH_TIMEOUT_MS = 5_000

type FetchOutcome = 'success' | 'failure'

/**
 * The identity provider's public keys (JWKS), found through OpenID discovery unless given, and
 * kept: a token signed with a key already fetched verifies while the provider is down. Only a
 * `kid` that no fetched key has, when the keys cannot be fetched, makes verification fail with
 * a 503 (the token may be fine; the service cannot tell).
 */
export class ProviderKeys {
  private remote: RemoteJWKSet | null = null
  private failedAt: number | null = null

  constructor(
    private readonly issuer: string,
    private readonly jwksUrl: string | null,
    private readonly onFetch: (outcome: FetchOutcome) => void,
    private readonly refetchAfterMs = REFETCH_AFTER_MS,
  ) {}

  /** jose's key resolver: the key of the token's `kid`. */
  readonly resolve = async (header: JWSHeaderParameters, token: FlattenedJWSInput) => {
    const recentlyFailed = this.failedAt !== null && Date.now() - this.failedAt < this.refetchAfterMs
    if (!recentlyFailed) {
      try {
        const remote = this.remote ?? (this.remote = await this.connect())
        const key = await remote(header, token)
        this.failedAt = null
        return key
      } catch (error) {
        if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error
        this.failedAt = Date.now()
      }
    }
    const cached = this.remote?.jwks()
    if (cached === undefined) throw providerKeysUnreachable()
    try {
      return await createLocalJWKSet(cached)(header, token)
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey) throw providerKeysUnreachable()
      throw error
    }
  }

  private async connect(): Promise<RemoteJWKSet> {
    const url = this.jwksUrl ?? (await this.discoverJwksUrl())
    const counted = async (input: string, init: RequestInit) => {
      try {
        const response = await fetch(input, { ...init, redirect: 'error' })
        this.onFetch(response.ok ? 'success' : 'failure')
        return response
      } catch (error) {
        this.onFetch('failure')
        throw error
      }
    }
    return createRemoteJWKSet(new URL(url), {
      cooldownDuration: this.refetchAfterMs,
      timeoutDuration: FETCH_TIMEOUT_MS,
      [customFetch]: counted,
    })
  }

  /** `jwks_uri` of `{issuer}/.well-known/openid-configuration`. */
  private async discoverJwksUrl(): Promise<string> {
    const url = `${this.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' })
    if (!response.ok) throw new Error(`discovery answered ${response.status}`)
    const { jwks_uri: jwksUri } = (await response.json()) as { jwks_uri?: unknown }
    if (typeof jwksUri !== 'string') throw new Error('discovery document without jwks_uri')
    return jwksUri
  }
}
