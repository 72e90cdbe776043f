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
export const REFETCH_AFTER_MS = 30_000
/** Keys fetched longer ago than this are fetched again at the next token: a key the provider removed stops verifying. */
export const KEYS_MAX_AGE_MS = 60_000
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

/** What the keys tell their user, and the clock they run on (the authenticator's). */
export interface ProviderKeysOptions {
  onFetch: (outcome: FetchOutcome) => void
  /** The provider unreachable (and why), or null when it is reachable again; once per change. */
  onStateChange?: (problem: ProviderProblem | null) => void
  /** A fetch found a key gone that an earlier one had: tokens it verified must be verified again. */
  onKeyRemoved?: () => void
  refetchAfterMs?: number
  maxAgeMs?: number
  now?: () => number
}

/**
 * The identity provider's public keys (JWKS), found through OpenID discovery unless given, and
 * kept: a token signed with a key already fetched verifies while the provider is down. Only a
 * `kid` that no fetched key has, when the keys cannot be fetched, makes verification fail with
 * a 503 (the token may be fine; the service cannot tell). Requests that need a fetch at the
 * same moment share one, and after a failed one the provider is not asked again for
 * `refetchAfterMs`. Keys older than `maxAgeMs` are fetched again, so a removed key stops verifying.
 */
export class ProviderKeys {
  private remote: RemoteJWKSet | null = null
  /** The discovery and set-up under way: concurrent first requests wait on this one. */
  private connecting: Promise<RemoteJWKSet> | null = null
  /** JWT_JWKS_URL, or the one discovery named: the URL a failure names. */
  private keysUrl: string | null = null
  private refreshing = false
  private failedAt: number | null = null
  private fetchedAt: number | null = null
  /** A fetch answered since the keys were last compared with those seen before. */
  private unseenFetch = false
  /** Each key of the last set seen, as JSON: a later set without one of them removed it. */
  private seenKeys: Set<string> | null = null
  /** The last fetch's problem, and the state last reported (null: reachable). */
  private lastProblem: ProviderProblem | null = null
  private reported: ProviderProblem | null = null
  private readonly onFetch: (outcome: FetchOutcome) => void
  private readonly onStateChange: (problem: ProviderProblem | null) => void
  private readonly onKeyRemoved: () => void
  private readonly refetchAfterMs: number
  private readonly maxAgeMs: number
  private readonly now: () => number

  constructor(
    private readonly issuer: string,
    private readonly jwksUrl: string | null,
    options: ProviderKeysOptions,
  ) {
    this.onFetch = options.onFetch
    this.onStateChange = options.onStateChange ?? (() => {})
    this.onKeyRemoved = options.onKeyRemoved ?? (() => {})
    this.refetchAfterMs = options.refetchAfterMs ?? REFETCH_AFTER_MS
    this.maxAgeMs = options.maxAgeMs ?? KEYS_MAX_AGE_MS
    this.now = options.now ?? Date.now
  }

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

  /**
   * Every fetch of the provider (discovery and keys), counted by outcome, its problem kept. A 200
   * whose body `unusable` finds fault with is a failure too: it brought nothing to use. A
   * redirect is never followed, and is told with its status.
   */
  private async fetchCounted(input: string, init: RequestInit, unusable: (body: unknown) => string | null): Promise<Response> {
    let response: Response
    try {
      response = await fetch(input, { ...init, redirect: 'manual' })
    } catch (error) {
      this.onFetch('failure')
      this.lastProblem = { url: shown(input), status: null, reason: reasonOf(error) }
      throw error
    }
    const text = response.ok ? await response.text() : ''
    let reason: string | null
    if (!response.ok) reason = response.status >= 300 && response.status < 400 ? 'unexpected redirect' : response.statusText || 'not 200'
    else {
      try {
        reason = unusable(JSON.parse(text))
      } catch {
        reason = 'not JSON'
      }
    }
    this.onFetch(reason === null ? 'success' : 'failure')
    this.lastProblem = reason === null ? null : { url: shown(input), status: response.status, reason }
    if (!response.ok) return response
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers })
  }

  /** jose's fetch of the keys: a key set kept fresh only when it is one. */
  private readonly fetchKeys = async (input: string, init: RequestInit): Promise<Response> => {
    const response = await this.fetchCounted(input, init, (body) => {
      const keys = (body as { keys?: unknown } | null)?.keys
      return Array.isArray(keys) && keys.every((key) => typeof key === 'object' && key !== null) ? null : 'JSON Web Key Set malformed'
    })
    if (this.lastProblem === null) {
      this.fetchedAt = this.now()
      this.unseenFetch = true
    }
    return response
  }

  private recentlyFailed(): boolean {
    return this.failedAt !== null && this.now() - this.failedAt < this.refetchAfterMs
  }

  /** A fetch succeeded (or needed none): the provider is reachable, and a key gone from a new set is told. */
  private fetched(): void {
    this.failedAt = null
    this.report(null)
    const remote = this.remote
    // A set fetched since the last look, once jose has taken it in (no reload still under way).
    if (!this.unseenFetch || remote === null || remote.reloading) return
    this.unseenFetch = false
    const seen = new Set((remote.jwks()?.keys ?? []).map((key) => JSON.stringify(key)))
    const removed = this.seenKeys !== null && [...this.seenKeys].some((key) => !seen.has(key))
    this.seenKeys = seen
    if (removed) this.onKeyRemoved()
  }

  private failed(error: unknown): void {
    this.failedAt = this.now()
    this.report(this.lastProblem ?? { url: shown(this.keysUrl ?? this.jwksUrl ?? this.issuer), status: null, reason: reasonOf(error) })
  }

  /**
   * Fetches the keys again when those kept are older than the max age, without making anyone
   * wait: tokens verified before are checked against what it brings once it is in.
   */
  refreshIfStale(): void {
    const remote = this.remote
    if (remote === null || this.refreshing || this.fetchedAt === null || this.recentlyFailed()) return
    if (this.now() - this.fetchedAt < this.maxAgeMs) return
    this.refreshing = true
    remote
      .reload()
      .then(
        () => this.fetched(),
        (error: unknown) => this.failed(error),
      )
      .finally(() => (this.refreshing = false))
  }

  /** jose's key resolver: the key of the token's `kid`. */
  readonly resolve = async (header: JWSHeaderParameters, token: FlattenedJWSInput) => {
    if (!this.recentlyFailed()) {
      try {
        const remote = await this.connected()
        const key = await remote(header, token)
        this.fetched()
        return key
      } catch (error) {
        if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
          this.fetched()
          throw error
        }
        if (await this.keptKeyFails(header, token, error)) throw error
        this.failed(error)
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

  /** The remote key set, made once: requests that arrive while it is being made wait on the same discovery. */
  private connected(): Promise<RemoteJWKSet> {
    if (this.remote !== null) return Promise.resolve(this.remote)
    this.connecting ??= this.connect().then(
      (remote) => (this.remote = remote),
      (error: unknown) => {
        // Not kept: the next attempt, after the cooldown, discovers again.
        this.connecting = null
        throw error
      },
    )
    return this.connecting
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
    this.keysUrl = url
    return createRemoteJWKSet(new URL(url), {
      cooldownDuration: this.refetchAfterMs,
      cacheMaxAge: this.maxAgeMs,
      timeoutDuration: FETCH_TIMEOUT_MS,
      [customFetch]: this.fetchKeys,
    })
  }

  /** `jwks_uri` of `{issuer}/.well-known/openid-configuration`. */
  private async discoverJwksUrl(): Promise<string> {
    const url = `${this.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`
    const jwksUriOf = (body: unknown) => (body as { jwks_uri?: unknown } | null)?.jwks_uri
    const response = await this.fetchCounted(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }, (body) =>
      typeof jwksUriOf(body) === 'string' ? null : 'discovery document without jwks_uri',
    )
    if (this.lastProblem !== null) throw new Error(this.lastProblem.reason)
    return jwksUriOf(await response.json()) as string
  }
}
