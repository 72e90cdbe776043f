import type { HasMetrics } from '../observability/metrics.js'
import type { EventName } from '../api/events.js'
import type { Scope } from '../api/scopes.js'
import type { Plant } from '../api/schemas.js'

export type { Plant }

/** The store cannot serve now (unreachable, locked, disk full); the client may retry (503). */
export class StoreUnavailableError extends Error {}

/** What a store tells the operator: connections the database dropped, a read-only server at start. */
export interface StoreLog {
  warn(details: Record<string, unknown>, message: string): void
}

export const SILENT_STORE_LOG: StoreLog = { warn() {} }

export interface NewPlant {
  id: bigint
  owner: string
  name: string
  tag: string | null
  /** The W3C traceparent of the request (tracing on), kept with the plant's events. */
  traceParent?: string | null
}

/** Which plants a caller sees: one owner's, or every owner's (`owner: null`, for admins). */
export interface PlantQuery {
  owner: string | null
  tag: string | null
  /** Only plants with an id greater than this. */
  after: bigint | null
  /** Only plants with an id up to and including this. */
  upTo: bigint | null
}

/** Plants in ascending id order, already in the JSON form of the API. */
export interface PlantPage {
  /** The plants as JSON objects separated by commas, without brackets: '' when there are none. */
  json: string
  count: number
  /** The id of the last plant, null when there are none: where the next page starts. */
  lastId: bigint | null
}

/** An Idempotency-Key of the plant's owner, with what identifies the request made with it. */
export interface IdempotencyKey {
  key: string
  /** A hash of the validated request: the same key with another request is a mismatch. */
  fingerprint: string
  /** Outcomes kept from before this time have expired: the key is new again. */
  keptSince: Date
}

/**
 * The outcome of a create made with an Idempotency-Key: created (200) or the id existed (400),
 * now or `replayed` from the first request with the key; or the key was used for another
 * request; or a request with the key is still being committed.
 */
export type KeyedCreate = { outcome: 'created' | 'exists'; replayed: boolean } | { outcome: 'mismatch' } | { outcome: 'in-flight' }

/** A webhook subscription as it is kept; `secret` as stored (sealed when WEBHOOK_SECRET_KEY is set). */
export interface Subscription {
  id: string
  subject: string
  /** Made with plants:admin: every new plant, whoever owns it. */
  allPlants: boolean
  url: string
  /** The event types it receives. */
  events: EventName[]
  secret: string
  createdAt: Date
  /** Set when it was disabled (410 Gone, or by PATCH); null while it is enabled. */
  disabledAt: Date | null
  disabledReason: string | null
}

/** A subscription to be made: its time and state are the store's. */
export type NewSubscription = Omit<Subscription, 'createdAt' | 'disabledAt' | 'disabledReason'>

/** What a PATCH of a subscription may change. */
export interface SubscriptionChange {
  url?: string
  events?: EventName[]
  enabled?: boolean
}

/** The reason a subscription disabled by PATCH shows. */
export const DISABLED_BY_REQUEST = 'disabled by a PATCH request'

/** An event claimed for one attempt: the claim holds until the lease ends or the outcome is recorded. */
export interface ClaimedDelivery {
  id: bigint
  /** The attempt's number (1 = first); the outcome is recorded only while it is still the latest. */
  attempt: number
  /** webhook-id: the same on every attempt of this event. */
  messageId: string
  /** The event type, sent as the plantstore-event header. */
  event: string
  /** The event's body, exactly. */
  body: string
  subscriptionId: string
  url: string
  secret: string
  /** The secret a rotation replaced, while it still signs beside `secret`; else null. */
  previousSecret: string | null
  /** The W3C traceparent of the request that wrote the event (tracing on), so its attempts join that trace; else null. */
  traceParent: string | null
}

/** What an attempt came to. `result` is a short text for the operator (status or error). */
export type DeliveryOutcome =
  | { kind: 'delivered'; result: string }
  | { kind: 'retry'; afterMs: number; result: string }
  | { kind: 'given-up'; result: string }
  /** 410 Gone: the subscription is disabled and its pending events dropped. */
  | { kind: 'disable'; result: string }

export interface FinishedDelivery {
  claim: ClaimedDelivery
  outcome: DeliveryOutcome
  /** The receiver's HTTP status, or null when there was no answer. */
  status: number | null
}

/** One event of a subscription as its deliveries log shows it. */
export interface DeliveryRecord {
  /** The outbox row: the log's paging cursor. */
  rowId: bigint
  messageId: string
  event: string
  /** null for a ping. */
  plantId: bigint | null
  state: 'pending' | 'delivered' | 'failed'
  attempts: number
  createdAt: Date
  lastAttemptAt: Date | null
  nextAttemptAt: Date | null
  lastStatus: number | null
  lastError: string | null
}

/** A subscription that an outcome disabled: the receiver answered 410, or failed for too long. */
export interface DisabledSubscription {
  id: string
  reason: 'gone' | 'failing'
  /** disabledReason, as the API shows it. */
  description: string
}

/** What an outcome disables: a 410 always; failures once none succeeded for `disableAfterMs` (null: never). */
export interface DisablePolicy {
  disableAfterMs: number | null
}

/** The reason a 410 Gone gives. */
export const GONE_REASON = '410 Gone'

/** disabledReason of a subscription disabled for failing since `since`. */
export const failingReason = (since: Date) => `no 2xx answer since ${since.toISOString()}`

/**
 * What a redelivery found: the event is due again (now, or once the attempt under way has its
 * outcome recorded), or it is unknown.
 */
export type Redelivery = 'requeued' | 'unknown'

/** The body of a ping event, and the plant id its outbox row carries (it is about no plant). */
export const PING_PLANT_ID = 0n

export interface WebhookBacklog {
  pending: number
  /** When the oldest pending event was written; null when none is pending. */
  oldestCreatedAt: Date | null
}

export const EMPTY_PAGE: PlantPage = { json: '', count: 0, lastId: null }

export interface TokenRecord {
  id: number
  subject: string
  scopes: Scope[]
  name: string | null
  createdAt: Date
  expiresAt: Date | null
  revokedAt: Date | null
}

export interface NewToken {
  hash: string
  subject: string
  scopes: readonly Scope[]
  name: string | null
  expiresAt: Date | null
}

/**
 * Everything the service keeps. Writes are durable when their promise resolves.
 * Implementations: SQLite (embedded default) and PostgreSQL (shared by many instances).
 */
export interface PlantStore extends HasMetrics {
  /** false when a plant with this id already exists, whoever owns it. */
  createPlant(plant: NewPlant): Promise<boolean>
  /**
   * A create under an Idempotency-Key of the owner: the outcome is kept with the plant, in the
   * same transaction, and a later request with the key and the same fingerprint gets it again.
   */
  createPlantWithKey(plant: NewPlant, key: IdempotencyKey): Promise<KeyedCreate>
  /** Deletes at most `limit` kept outcomes older than `before`; answers how many went. */
  pruneIdempotencyKeys(before: Date, limit: number): Promise<number>
  /**
   * Plants matching the query in ascending id order, at most `limit` of them, as JSON text:
   * a list is sent as it comes from the store, with no object made per plant.
   */
  listPlants(query: PlantQuery, limit: number): Promise<PlantPage>
  /** The id of the `n`-th plant (1-based) that `listPlants` would return, or null when there are fewer. */
  nthPlantId(query: PlantQuery, n: number): Promise<bigint | null>
  getPlant(id: bigint, owner: string | null): Promise<Plant | null>
  /** false when no plant with this id is visible to `owner`. */
  deletePlant(id: bigint, owner: string | null, traceParent?: string | null): Promise<boolean>

  createToken(token: NewToken): Promise<number>
  /** Creates the token only when no token exists at all; returns its id, or null. */
  createFirstToken(token: NewToken): Promise<number | null>
  findTokenByHash(hash: string): Promise<TokenRecord | null>
  listTokens(): Promise<TokenRecord[]>
  /** false when there is no such token or it was already revoked. */
  revokeToken(id: number): Promise<boolean>

  /**
   * Webhooks. Every create that answers `true` also writes, in its transaction, one pending
   * event per subscription that is active then and covers the plant's owner.
   */
  /**
   * Makes the subscription unless its subject has `limit` already, counted in the same
   * transaction as the insert; answers it as kept (its createdAt is the stored instant), or null.
   */
  createSubscription(subscription: NewSubscription, limit: number): Promise<Subscription | null>
  /** The subject's subscriptions (null: everyone's), oldest first. */
  listSubscriptions(subject: string | null): Promise<Subscription[]>
  /** Deletes the subscription and all its events; false when `subject` (null: any) has none with this id. */
  deleteSubscription(id: string, subject: string | null): Promise<boolean>
  /** The subscription, when it is the subject's (any subject's for null); else null. */
  getSubscription(id: string, subject: string | null): Promise<Subscription | null>
  /**
   * Changes what `change` names and answers the subscription as it is now; null when there is
   * no such subscription of the subject. Disabling it fails its pending events (they can be
   * recovered); enabling it clears the reason, for events from then on.
   */
  updateSubscription(id: string, subject: string | null, change: SubscriptionChange): Promise<Subscription | null>
  /** Whether any event is due now: a cheap read before a claim. */
  hasDueDeliveries(): Promise<boolean>
  /** Claims up to `limit` due events for one attempt each; an unrecorded claim is due again after `leaseMs`. */
  claimDeliveries(limit: number, leaseMs: number): Promise<ClaimedDelivery[]>
  /**
   * Records the outcomes, each unless its claim has been taken over since, and in the same
   * transaction each subscription's failing streak: a 410, or failures with no 2xx for
   * `policy.disableAfterMs`, disable it and fail its pending events. An event redelivered during
   * its attempt is due again at once. Answers the subscriptions that were disabled now. A claim
   * whose outcome could not be written stays claimed until its lease ends.
   */
  finishDeliveries(finished: readonly FinishedDelivery[], policy: DisablePolicy): Promise<DisabledSubscription[]>
  /**
   * Gives back claims whose attempts a stop cut off: no attempt is counted, and each event is
   * due again now (after the restart), with its webhook-id.
   */
  releaseDeliveries(claims: readonly ClaimedDelivery[]): Promise<void>
  /**
   * Gives the subscription `secret` (sealed as stored); the one it replaces signs beside it until
   * `previousExpiresAt`, and an older previous one stops. false when it is not the subject's.
   */
  rotateSecret(id: string, subject: string | null, secret: string, previousExpiresAt: Date): Promise<boolean>
  /** The subscription's events, newest first, those before the row `before` (all when null). */
  listDeliveries(subscriptionId: string, before: bigint | null, limit: number): Promise<DeliveryRecord[]>
  /**
   * Makes the event due now, with the same webhook-id and body, and a new round of retries; one
   * whose attempt is under way is sent once more after that attempt.
   */
  redeliver(subscriptionId: string, messageId: string): Promise<Redelivery>
  /** Makes every failed event created at or after `since` due now; answers how many. */
  recoverDeliveries(subscriptionId: string, since: Date): Promise<number>
  /** Writes a ping event for the subscription, due now, whether or not it is enabled; false when it is gone. */
  queuePing(subscriptionId: string, messageId: string, body: string, traceParent?: string | null): Promise<boolean>
  webhookBacklog(): Promise<WebhookBacklog>
  /** Deletes at most `limit` delivered or given-up events finished before `before`; answers how many went. */
  pruneDeliveries(before: Date, limit: number): Promise<number>

  /** Resolves when the database answers. */
  ping(): Promise<void>
  close(): Promise<void>
}
