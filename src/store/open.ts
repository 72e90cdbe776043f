import type { DatabaseConfig } from '../config.js'
import { SqliteStore } from './sqlite.js'
import type { PlantStore } from './store.js'

/** Opens the store that DATABASE_URL names, with its schema brought up to date. */
export async function openStore(database: DatabaseConfig): Promise<PlantStore> {
  switch (database.kind) {
    case 'sqlite':
      return SqliteStore.open(database.path)
    case 'postgres':
      throw new Error('the PostgreSQL store is not built yet')
  }
}
