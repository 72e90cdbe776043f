import type { Registry } from 'prom-client'
import type { Scope } from '../auth/tokens.js'
import type { Plant } from '../routes/schemas.js'

export type { Plant }

/** The store cannot serve now (unreachable, locked, disk full); the client may retry (503). */
export class StoreUnavailableError extends Error {}

export interface NewPlant {
  id: bigint
  owner: string
  name: string
  tag: string | null
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
export type KeyedCreate =
  | { outcome: 'created' | 'exists'; replayed: boolean }
  | { outcome: 'mismatch' }
  | { outcome: 'in-flight' }

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
export interface PlantStore {
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
  deletePlant(id: bigint, owner: string | null): Promise<boolean>

  createToken(token: NewToken): Promise<number>
  /** Creates the token only when no token exists at all; returns its id, or null. */
  createFirstToken(token: NewToken): Promise<number | null>
  findTokenByHash(hash: string): Promise<TokenRecord | null>
  listTokens(): Promise<TokenRecord[]>
  /** false when there is no such token or it was already revoked. */
  revokeToken(id: number): Promise<boolean>

  /** Resolves when the database answers. */
  ping(): Promise<void>
  /** Adds the store's own metrics (pool, query latency) to the registry, where it has any. */
  registerMetrics?(registry: Registry): void
  close(): Promise<void>
}
