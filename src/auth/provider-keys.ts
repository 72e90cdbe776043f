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

/** Why the provider's keys cannot be fetched: the URL asked (no query), its status if it answered, the reason. */
export interface ProviderProblem {
  url: string
  status: number | null
  reason: string
}

/** A URL fit for the log: no credentials, no query. */
const shown = (url: string) => {
  const parsed = new URL(url)
  return `${parsed.origin}${parsed.pathname}`
}

/** The reason a fetch failed: undici puts the cause (a refused connection, a redirect) beneath "fetch failed". */
const reasonOf = (error: unknown) => {
  const cause = (error as { cause?: unknown }).cause
  return cause instanceof Error ? cause.message : (error as Error).message
}

/**
 * The identity provider's public keys (JWKS), found through OpenID discovery unless given, and
 * kept: a token signed with a key already fetched verifies while the provider is down. Only a
 * `kid` that no fetched key has, when the keys cannot be fetched, makes verification fail with
 * a 503 (the token may be fine; the service cannot tell).
 */
export class ProviderKeys {
  private remote: RemoteJWKSet | null = null
  private failedAt: number | null = null
  /** The last fetch's problem, and the state last reported (null: reachable). */
  private lastProblem: ProviderProblem | null = null
  private reported: ProviderProblem | null = null

  constructor(
    private readonly issuer: string,
    private readonly jwksUrl: string | null,
    private readonly onFetch: (outcome: FetchOutcome) => void,
    private readonly refetchAfterMs = REFETCH_AFTER_MS,
    private readonly onStateChange: (problem: ProviderProblem | null) => void = () => {},
  ) {}

  /** Reports the provider unreachable (and why) or reachable again, once per change. */
  private report(problem: ProviderProblem | null): void {
    const same =
      problem === null || this.reported === null
        ? problem === this.reported
        : problem.url === this.reported.url && problem.status === this.reported.status && problem.reason === this.reported.reason
    if (same) return
    this.reported = problem
    this.onStateChange(problem)
  }

  /** Every fetch of the provider (discovery and keys), counted by outcome, its problem kept. */
  private readonly fetchCounted = async (input: string, init: RequestInit): Promise<Response> => {
    try {
      const response = await fetch(input, { ...init, redirect: 'error' })
      this.onFetch(response.ok ? 'success' : 'failure')
      this.lastProblem = response.ok ? null : { url: shown(input), status: response.status, reason: response.statusText || 'not 200' }
      return response
    } catch (error) {
      this.onFetch('failure')
      this.lastProblem = { url: shown(input), status: null, reason: reasonOf(error) }
      throw error
    }
  }

  /** jose's key resolver: the key of the token's `kid`. */
  readonly resolve = async (header: JWSHeaderParameters, token: FlattenedJWSInput) => {
    const recentlyFailed = this.failedAt !== null && Date.now() - this.failedAt < this.refetchAfterMs
    if (!recentlyFailed) {
      try {
        const remote = this.remote ?? (this.remote = await this.connect())
        const key = await remote(header, token)
        this.failedAt = null
        this.report(null)
        return key
      } catch (error) {
        if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error
        if (await this.keptKeyFails(header, token, error)) throw error
        this.failedAt = Date.now()
        this.report(this.lastProblem ?? { url: shown(this.jwksUrl ?? this.issuer), status: null, reason: reasonOf(error) })
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

  /**
   * Whether the keys already fetched fail this token the same way by themselves: then the
   * provider answered and its key for this `kid` cannot be used (a point off its curve). That is
   * the token's 401, never a reason to stop fetching the provider's other keys.
   */
  private async keptKeyFails(header: JWSHeaderParameters, token: FlattenedJWSInput, error: unknown): Promise<boolean> {
    const kept = this.remote?.jwks()
    if (kept === undefined || !(error instanceof Error)) return false
    try {
      await createLocalJWKSet(kept)(header, token)
      return false
    } catch (again) {
      return again instanceof Error && again.name === error.name && again.message === error.message
    }
  }

  private async connect(): Promise<RemoteJWKSet> {
    const url = this.jwksUrl ?? (await this.discoverJwksUrl())
    return createRemoteJWKSet(new URL(url), {
      cooldownDuration: this.refetchAfterMs,
      timeoutDuration: FETCH_TIMEOUT_MS,
      [customFetch]: this.fetchCounted,
    })
  }

  /** `jwks_uri` of `{issuer}/.well-known/openid-configuration`. */
  private async discoverJwksUrl(): Promise<string> {
    const url = `${this.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`
    const response = await this.fetchCounted(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
    if (!response.ok) throw new Error(`discovery answered ${response.status}`)
    const { jwks_uri: jwksUri } = (await response.json()) as { jwks_uri?: unknown }
    if (typeof jwksUri !== 'string') throw new Error('discovery document without jwks_uri')
    return jwksUri
  }
}
