import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { DatabaseConfig } from './config.js'
import { ConfigError } from './errors.js'

/** Litestream replicating the SQLite file (deploy/litestream.yml), as far as the service can see it. */
export interface ReplicationConfig {
  /** The database's absolute path: Litestream labels its metrics with it. */
  databasePath: string
  /** The folder of a `file` replica (LITESTREAM_REPLICA_URL), checked at start; null for other replicas (s3:// …). */
  replicaFolder: string | null
}

/** A `file://` URL is a folder on this machine (Litestream's `url` takes no bare path); s3:// and the rest are not. */
function folderOf(url: string): string | null {
  if (!url.startsWith('file://')) return null
  try {
    return fileURLToPath(url)
  } catch (error) {
    throw new ConfigError(`LITESTREAM_REPLICA_URL: ${(error as Error).message}; a file replica is file:///PATH, got '${url}'`)
  }
}

/** LITESTREAM_REPLICA_URL, for a SQLite store only; null when it is not set. */
export function parseReplication(env: NodeJS.ProcessEnv, database: DatabaseConfig): ReplicationConfig | null {
  const replicaUrl = env.LITESTREAM_REPLICA_URL || null
  if (database.kind !== 'sqlite' || database.path === ':memory:' || replicaUrl === null) return null
  return {
    databasePath: resolve(database.path),
    replicaFolder: folderOf(replicaUrl),
  }
}
