import type { EventName } from '../api/events.js'

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

/** The webhook subscriptions; `subject` null means any subject's (an admin's view). */
export interface SubscriptionRecords {
  /**
   * Makes the subscription unless its subject has `limit` already, counted in the same
   * transaction as the insert; answers it as kept (its createdAt is the stored instant), or null.
   */
  create(subscription: NewSubscription, limit: number): Promise<Subscription | null>
  /** The subject's subscriptions (null: everyone's), oldest first. */
  list(subject: string | null): Promise<Subscription[]>
  /** The subscription, when it is the subject's (any subject's for null); else null. */
  get(id: string, subject: string | null): Promise<Subscription | null>
  /**
   * Changes what `change` names and answers the subscription as it is now; null when there is
   * no such subscription of the subject. Disabling it fails its pending events (they can be
   * recovered); enabling it clears the reason, for events from then on.
   */
  update(id: string, subject: string | null, change: SubscriptionChange): Promise<Subscription | null>
  /** Deletes the subscription and all its events; false when `subject` (null: any) has none with this id. */
  delete(id: string, subject: string | null): Promise<boolean>
  /**
   * Gives the subscription `secret` (sealed as stored); the one it replaces signs beside it until
   * `previousExpiresAt`, and an older previous one stops. false when it is not the subject's.
   */
  rotateSecret(id: string, subject: string | null, secret: string, previousExpiresAt: Date): Promise<boolean>
  /**
   * Replaces each kept secret (current and previous) that `seal` answers for, in one
   * transaction; `seal` answers null for a secret already sealed. A secret another process
   * changed first is left as that process wrote it. Answers how many were replaced.
   */
  sealKept(seal: (kept: string) => string | null): Promise<number>
}
