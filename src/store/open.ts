import type { DatabaseConfig } from '../config.js'
import { SqliteStore } from './sqlite/store.js'
import type { PlantStore } from './store.js'

/**
 * Opens the store that DATABASE_URL names, with its schema brought up to date.
 * `onConnectionError` hears of connections the database dropped while idle.
 */
export async function openStore(
  database: DatabaseConfig,
  onConnectionError: (error: Error) => void = () => {},
): Promise<PlantStore> {
  switch (database.kind) {
    case 'sqlite':
      return SqliteStore.open(database.path)
    case 'postgres': {
      // Loaded only when used: the driver costs a SQLite deployment ~10 MB of memory for nothing.
      const { PostgresStore } = await import('./postgres/store.js')
      return PostgresStore.open(database, onConnectionError)
    }
  }
}
