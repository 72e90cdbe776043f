/** An event claimed for one attempt: the claim holds until the lease ends or the outcome is recorded. */
export interface ClaimedDelivery {
  id: bigint
  /** The attempt's number (1 = first); the outcome is recorded only while it is still the latest. */
  attempt: number
  /** The attempt's number in its round of retries (1 = first since the event was written, redelivered or recovered): the schedule counts from it. */
  round: number
  /** webhook-id: the same on every attempt of this event. */
  messageId: string
  /** The event type, sent as the plantstore-event header. */
  event: string
  /** The event's body, exactly. */
  body: string
  subscriptionId: string
  /** The subscription's subject. */
  subject: string
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
  /** The subscription is disabled (a 410 Gone, or failing for too long) and its pending events failed. */
  | { kind: 'disable'; result: string }

export interface FinishedDelivery {
  claim: ClaimedDelivery
  outcome: DeliveryOutcome
  /** The receiver's HTTP status, or null when there was no answer. */
  status: number | null
}

/** Why an outcome disables a subscription: the receiver answered 410, or failed for too long. */
export const DISABLE_REASONS = ['gone', 'failing'] as const

/** A subscription that an outcome disabled: the receiver answered 410, or failed for too long. */
export interface DisabledSubscription {
  id: string
  reason: (typeof DISABLE_REASONS)[number]
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

export interface WebhookBacklog {
  pending: number
  /** When the oldest pending event was written; null when none is pending. */
  oldestCreatedAt: Date | null
}

/** The events waiting to be sent, as the delivery worker sees them. */
export interface Outbox {
  /** Whether any event is due now: a cheap read before a claim. */
  hasDue(): Promise<boolean>
  /**
   * Claims up to `limit` due events for one attempt each, within `share`'s bounds per
   * subscription and per subject (fairShare), never one of a disabled subscription (but a
   * ping). The claim is kept in the database, where every process sees the attempt under way;
   * an unrecorded claim is due again after `leaseMs`.
   */
  claim(limit: number, leaseMs: number, share: ClaimShare): Promise<ClaimedDelivery[]>
  /**
   * Records the outcomes, each unless its claim has been taken over since, and in the same
   * transaction each subscription's failing streak: a 410, or failures with no 2xx for
   * `policy.disableAfterMs`, disable it and fail its pending events. An event redelivered during
   * its attempt is due again at once. An attempt whose subscription was disabled meanwhile is
   * recorded as it ended (a 2xx: delivered), and is not retried. Answers the subscriptions that
   * were disabled now. A claim
   * whose outcome could not be written stays claimed until its lease ends.
   */
  finish(finished: readonly FinishedDelivery[], policy: DisablePolicy): Promise<DisabledSubscription[]>
  /**
   * Gives back claims whose attempts a stop (or our own key) cut off: no attempt is counted, and
   * each event is due again after `dueInMs` (0: now, after the restart), with its webhook-id.
   */
  release(claims: readonly ClaimedDelivery[], dueInMs?: number): Promise<void>
  backlog(): Promise<WebhookBacklog>
  /** Deletes at most `limit` delivered or given-up events finished before `before`; answers how many went. */
  prune(before: Date, limit: number): Promise<number>
}

/**
 * What a worker's attempts under way hold of its slots, and the most each subscription and
 * each subject may hold at once: one subject's silent receivers never take every slot.
 */
export interface ClaimShare {
  perSubscription: number
  perSubject: number
  heldBySubscription: ReadonlyMap<string, number>
  heldBySubject: ReadonlyMap<string, number>
}
