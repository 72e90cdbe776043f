import type { Registry } from 'prom-client'
import type { PostgresConfig } from '../../config/config.js'
import { SILENT_STORE_LOG, type PlantStore, type StoreLog } from '../store.js'
import { PostgresDatabase } from './database.js'
import { PostgresDeliveryLog } from './deliveries.js'
import { PostgresOutbox } from './outbox.js'
import { PostgresPlants } from './plants.js'
import { PostgresSubscriptions } from './subscriptions.js'
import { PostgresTokens } from './tokens.js'

/** The shared store: many instances on one PostgreSQL database, each concern a role over the same pools. */
export class PostgresStore implements PlantStore {
  readonly plants: PostgresPlants
  readonly tokens: PostgresTokens
  readonly subscriptions: PostgresSubscriptions
  readonly outbox: PostgresOutbox
  readonly deliveries: PostgresDeliveryLog

  private constructor(private readonly database: PostgresDatabase) {
    this.plants = new PostgresPlants(database)
    this.tokens = new PostgresTokens(database)
    this.subscriptions = new PostgresSubscriptions(database)
    this.outbox = new PostgresOutbox(database)
    this.deliveries = new PostgresDeliveryLog(database)
  }

  /** Connects and migrates (see PostgresDatabase.open). */
  static async open(config: PostgresConfig, log: StoreLog = SILENT_STORE_LOG): Promise<PostgresStore> {
    return new PostgresStore(await PostgresDatabase.open(config, log))
  }

  ping(): Promise<void> {
    return this.database.ping()
  }

  registerMetrics(registry: Registry): void {
    this.database.registerMetrics(registry)
  }

  async close(): Promise<void> {
    await this.plants.flush()
    await this.database.close()
  }
}
