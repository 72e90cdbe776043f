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

/**
 * What a redelivery found: the event is due again (now, or once the attempt under way has its
 * outcome recorded), it is unknown, or its subscription is disabled (nothing changed).
 */
export type Redelivery = 'requeued' | 'unknown' | 'disabled'

/** What a recover found: how many events are due again, or that the subscription is disabled (nothing changed). */
export type Recovery = { requeued: number } | 'disabled'

/** The plant id a ping's outbox row carries: a ping is about no plant. */
export const PING_PLANT_ID = 0n

/** A subscription's events as its owner sees and steers them: the log, redeliveries, pings. */
export interface DeliveryLog {
  /** The subscription's events, newest first, those before the row `before` (all when null). */
  list(subscriptionId: string, before: bigint | null, limit: number): Promise<DeliveryRecord[]>
  /**
   * Makes the event due now, with the same webhook-id and body, and a new round of retries (its
   * attempts are kept); one whose attempt is under way is sent once more after that attempt.
   * Nothing while the subscription is disabled.
   */
  redeliver(subscriptionId: string, messageId: string): Promise<Redelivery>
  /** Makes every failed event created at or after `since` due now, each a new round of retries; nothing while disabled. */
  recover(subscriptionId: string, since: Date): Promise<Recovery>
  /** Writes a ping event for the subscription, due now, whether or not it is enabled; false when it is gone. */
  queuePing(subscriptionId: string, messageId: string, body: string, traceParent?: string | null): Promise<boolean>
}
