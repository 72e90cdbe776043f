import type { EventName } from '../../api/events.js'
import { firstCodePoints } from './text.js'
import type { Scope } from '../../api/scopes.js'
import { type ClaimedDelivery, type DeliveryRecord, PING_PLANT_ID, type Plant, type Subscription, type TokenRecord } from '../store.js'

export const TOKEN_COLUMNS = 'id, subject, scopes, name, created_at, expires_at, revoked_at'

/** A row of the tokens table; each store has its own type of time (`T`). */
export interface TokenRow<T> {
  id: number | string
  subject: string
  scopes: string
  name: string | null
  created_at: T
  expires_at: T | null
  revoked_at: T | null
}

export function toTokenRecord<T>(row: TokenRow<T>, toDate: (time: T) => Date): TokenRecord {
  return {
    id: Number(row.id),
    subject: row.subject,
    scopes: row.scopes.split(' ') as Scope[],
    name: row.name,
    createdAt: toDate(row.created_at),
    expiresAt: row.expires_at === null ? null : toDate(row.expires_at),
    revokedAt: row.revoked_at === null ? null : toDate(row.revoked_at),
  }
}

/** The Plant shape of the API from a row: `tag` is left out when it is NULL. */
export function toPlant(row: { name: string; tag: string | null }): Plant {
  return row.tag === null ? { name: row.name } : { name: row.name, tag: row.tag }
}

export const SUBSCRIPTION_COLUMNS = 'id, subject, all_plants, url, events, secret, created_at, disabled_at, disabled_reason'

/** A row of webhook_subscriptions; each store has its own types of time (`T`) and boolean (`B`). */
export interface SubscriptionRow<T, B> {
  id: string
  subject: string
  all_plants: B
  url: string
  /** Space-separated event names. */
  events: string
  secret: string
  created_at: T
  disabled_at: T | null
  disabled_reason: string | null
}

/** Whether a subscription's `events` column (space-separated) names `event`, in SQL; `column` as written in the query. */
export const receives = (column: string, event: string) => `(' ' || ${column} || ' ') LIKE '% ${event} %'`

export function toSubscription<T, B>(row: SubscriptionRow<T, B>, toDate: (time: T) => Date): Subscription {
  return {
    id: row.id,
    subject: row.subject,
    allPlants: Boolean(row.all_plants),
    url: row.url,
    events: row.events.split(' ') as EventName[],
    secret: row.secret,
    createdAt: toDate(row.created_at),
    disabledAt: row.disabled_at === null ? null : toDate(row.disabled_at),
    disabledReason: row.disabled_reason,
  }
}

/** The columns of a deliveries log row; PostgreSQL's store casts its int8 columns to text in its own query. */
export const DELIVERY_COLUMNS =
  'id, message_id, event, plant_id, state, attempts, created_at, last_attempt_at, next_attempt_at, last_status, last_result'

/** A row of webhook_deliveries for the log; integers as each driver reads them (`I`), times as each store keeps them (`T`). */
export interface DeliveryRow<T, I> {
  id: I
  message_id: string
  event: string
  plant_id: I
  state: string
  attempts: I
  created_at: T
  last_attempt_at: T | null
  next_attempt_at: T
  last_status: I | null
  last_result: string | null
}

const LOG_STATES: Record<string, DeliveryRecord['state']> = { pending: 'pending', delivered: 'delivered', given_up: 'failed' }

export function toDeliveryRecord<T, I extends bigint | string | number>(row: DeliveryRow<T, I>, toDate: (time: T) => Date): DeliveryRecord {
  const state = LOG_STATES[row.state] ?? 'failed'
  // A status outside 100-599 recorded before such answers became errors is shown as none.
  const status = row.last_status === null ? null : Number(row.last_status)
  const lastStatus = status !== null && status >= 100 && status <= 599 ? status : null
  const answered = lastStatus !== null && lastStatus >= 200 && lastStatus < 300
  return {
    rowId: BigInt(row.id),
    messageId: row.message_id,
    event: row.event,
    plantId: row.event === 'ping' && BigInt(row.plant_id) === PING_PLANT_ID ? null : BigInt(row.plant_id),
    state,
    attempts: Number(row.attempts),
    createdAt: toDate(row.created_at),
    lastAttemptAt: row.last_attempt_at === null ? null : toDate(row.last_attempt_at),
    nextAttemptAt: state === 'pending' ? toDate(row.next_attempt_at) : null,
    lastStatus,
    lastError: answered || row.last_result === null ? null : firstCodePoints(row.last_result, 200),
  }
}

/** A claimed outbox row, as each driver reads its integers (`I`). */
export interface ClaimRow<I> {
  id: I
  /** The attempts made, this claim's included. */
  attempts: I
  /** The attempts made before this round of retries. */
  round_start: I
  message_id: string
  event: string
  body: string
  subscription_id: string
  /** The subscription's subject: a claim bounds what one subject holds at once. */
  subject: string
  url: string
  secret: string
  previous_secret: string | null
  trace_parent: string | null
}

/** The claim of `row`, whose `attempts` counts this claim's attempt already. */
export function toClaimedDelivery<I extends bigint | string | number>(row: ClaimRow<I>): ClaimedDelivery {
  const attempt = Number(row.attempts)
  return {
    id: BigInt(row.id),
    attempt,
    round: attempt - Number(row.round_start),
    messageId: row.message_id,
    event: row.event,
    body: row.body,
    subscriptionId: row.subscription_id,
    subject: row.subject,
    url: row.url,
    secret: row.secret,
    previousSecret: row.previous_secret,
    traceParent: row.trace_parent,
  }
}
