import type { HasMetrics } from '../observability/metrics.js'
import type { DeliveryLog } from './deliveries.js'
import type { Outbox } from './outbox.js'
import type { PlantRecords } from './plants.js'
import type { SubscriptionRecords } from './subscriptions.js'
import type { TokenRecords } from './tokens.js'

export * from './deliveries.js'
export * from './outbox.js'
export * from './plants.js'
export * from './subscriptions.js'
export * from './tokens.js'

/** The store cannot serve now (unreachable, locked, disk full); the client may retry (503). */
export class StoreUnavailableError extends Error {}

/** What a store tells the operator: connections the database dropped, a read-only server at start. */
export interface StoreLog {
  warn(details: Record<string, unknown>, message: string): void
}

export const SILENT_STORE_LOG: StoreLog = { warn() {} }

/** The roles of a store, by the name each has on it: a consumer takes the one it uses. */
export interface StoreRoles {
  plants: PlantRecords
  tokens: TokenRecords
  subscriptions: SubscriptionRecords
  outbox: Outbox
  deliveries: DeliveryLog
}

export const STORE_ROLES = ['plants', 'tokens', 'subscriptions', 'outbox', 'deliveries'] as const satisfies readonly (keyof StoreRoles)[]

/**
 * Everything the service keeps, as one role per concern. Writes are durable when their promise
 * resolves. Implementations: SQLite (embedded default) and PostgreSQL (shared by many instances).
 */
export interface PlantStore extends StoreRoles, HasMetrics {
  /** Resolves when the database answers. */
  ping(): Promise<void>
  /** SQLite only: a write that changes nothing the service reads, for Litestream to copy to its replicas. */
  touch?(): Promise<void>
  close(): Promise<void>
}
