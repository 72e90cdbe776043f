import type { Registry } from 'prom-client'
import type { PlantStore } from '../store.js'
import { SqliteDatabase } from './database.js'
import { SqliteDeliveryLog } from './deliveries.js'
import { SqliteOutbox } from './outbox.js'
import { SqlitePlants } from './plants.js'
import { SqliteSubscriptions } from './subscriptions.js'
import { SqliteTokens } from './tokens.js'

/** The embedded store: one SQLite file, each concern a role over one shared connection and writer. */
export class SqliteStore implements PlantStore {
  readonly plants: SqlitePlants
  readonly tokens: SqliteTokens
  readonly subscriptions: SqliteSubscriptions
  readonly outbox: SqliteOutbox
  readonly deliveries: SqliteDeliveryLog

  private constructor(private readonly database: SqliteDatabase) {
    this.plants = new SqlitePlants(database)
    this.tokens = new SqliteTokens(database)
    this.subscriptions = new SqliteSubscriptions(database)
    this.outbox = new SqliteOutbox(database)
    this.deliveries = new SqliteDeliveryLog(database)
  }

  static open(path: string): SqliteStore {
    return new SqliteStore(SqliteDatabase.open(path))
  }

  /** Transactions committed and the writes they carried. */
  get commitCounts(): { readonly transactions: number; readonly writes: number } {
    return this.database.commitCounts
  }

  ping(): Promise<void> {
    return this.database.ping()
  }

  /** One page written to the WAL, changing nothing the service reads: for Litestream to copy. */
  touch(): Promise<void> {
    return this.database.touch()
  }

  registerMetrics(registry: Registry): void {
    this.database.registerMetrics(registry)
  }

  close(): Promise<void> {
    return this.database.close()
  }
}
