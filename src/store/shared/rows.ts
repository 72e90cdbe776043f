import type { Scope } from '../../api/scopes.js'
import type { Plant, Subscription, TokenRecord } from '../store.js'

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

export const SUBSCRIPTION_COLUMNS = 'id, subject, all_plants, url, secret, created_at, disabled_at, disabled_reason'

/** A row of webhook_subscriptions; each store has its own types of time (`T`) and boolean (`B`). */
export interface SubscriptionRow<T, B> {
  id: string
  subject: string
  all_plants: B
  url: string
  secret: string
  created_at: T
  disabled_at: T | null
  disabled_reason: string | null
}

export function toSubscription<T, B>(row: SubscriptionRow<T, B>, toDate: (time: T) => Date): Subscription {
  return {
    id: row.id,
    subject: row.subject,
    allPlants: Boolean(row.all_plants),
    url: row.url,
    secret: row.secret,
    createdAt: toDate(row.created_at),
    disabledAt: row.disabled_at === null ? null : toDate(row.disabled_at),
    disabledReason: row.disabled_reason,
  }
}
