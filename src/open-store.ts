import type { DatabaseConfig } from './config/config.js'
import { SqliteStore } from './store/sqlite/store.js'
import { type PlantStore, SILENT_STORE_LOG, type StoreLog } from './store/store.js'

/**
 * Opens the store that DATABASE_URL names, with its schema brought up to date.
 * `log` hears of connections the database dropped and of a read-only server at start.
 */
export async function openStore(database: DatabaseConfig, log: StoreLog = SILENT_STORE_LOG): Promise<PlantStore> {
  switch (database.kind) {
    case 'sqlite':
      try {
        return SqliteStore.open(database.path)
      } catch (error) {
        throw new Error(`DATABASE_URL: the SQLite database ${database.path} cannot be opened: ${(error as Error).message}`, {
          cause: error,
        })
      }
    case 'postgres': {
      // Loaded only when used: the driver costs a SQLite deployment ~10 MB of memory for nothing.
      const { PostgresStore } = await import('./store/postgres/store.js')
      try {
        return await PostgresStore.open(database, log)
      } catch (error) {
        const { host, port } = new URL(database.url)
        throw new Error(
          `DATABASE_URL: the PostgreSQL database at ${host}${port ? '' : ':5432'} cannot be used: ${(error as Error).message}`,
          {
            cause: error,
          },
        )
      }
    }
  }
}
