import { accessSync, constants } from 'node:fs'
import { dirname } from 'node:path'
import type { DatabaseConfig } from './config/config.js'
import { SqliteStore } from './store/sqlite/store.js'
import { type PlantStore, SILENT_STORE_LOG, type StoreLog } from './store/store.js'

/**
 * SQLite makes its -wal and -shm beside the file and says only "unable to open" or "readonly
 * database" when it cannot: name the folder that refuses, and why (a volume owned by root).
 */
function folderProblem(path: string): string {
  const folder = dirname(path)
  try {
    accessSync(folder, constants.W_OK)
    return ''
  } catch (error) {
    const code = (error as { code?: string }).code
    const why = code === 'EROFS' ? 'read-only' : code === 'EACCES' ? 'permission denied' : code
    return ` (its folder ${folder} cannot be written: ${why}; uid ${process.getuid?.() ?? '?'} needs to write there)`
  }
}

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
        throw new Error(
          `DATABASE_URL: the SQLite database ${database.path} cannot be opened: ${(error as Error).message}${folderProblem(database.path)}`,
          { cause: error },
        )
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
