import type { Scope } from '../../auth/tokens.js'
import type { Plant, TokenRecord } from '../store.js'

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
