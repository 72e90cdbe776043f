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
