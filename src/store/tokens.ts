import type { Scope } from '../api/scopes.js'

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
  /** When it was made, when its expiry was counted from; absent: the time of the insert. */
  createdAt?: Date
}

/** The opaque tokens, kept by hash. */
export interface TokenRecords {
  create(token: NewToken): Promise<number>
  /** Creates the token only when no token exists at all; returns its id, or null. */
  createFirst(token: NewToken): Promise<number | null>
  findByHash(hash: string): Promise<TokenRecord | null>
  list(): Promise<TokenRecord[]>
  /** false when there is no such token or it was already revoked. */
  revoke(id: number): Promise<boolean>
}
