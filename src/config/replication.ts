import { resolve } from 'node:path'
import type { DatabaseConfig } from './config.js'
import { ConfigError } from './errors.js'

/** Litestream replicating the SQLite file (deploy/litestream.yml), as far as the service can see it. */
export interface ReplicationConfig {
  /** The database's absolute path: Litestream labels its metrics with it. */
  databasePath: string
  /** The folder of a `file` replica (LITESTREAM_REPLICA_URL), checked at start; null for other replicas (s3:// …). */
  replicaFolder: string | null
  /** Litestream's metrics (LITESTREAM_METRICS_ADDR), read for the replication lag; null = not measured. */
  metricsUrl: string | null
  /**
   * Whether this process logs the warnings of reading Litestream: under WORKERS one worker does
   * (the primary sets PLANTSTORE_REPLICATION_WARNINGS=off in the others), so an outage is one
   * line, not one per worker.
   */
  warns: boolean
}

/**
 * A `file:` URL is a folder on this machine (Litestream's `url` takes no bare path); s3:// and the
 * rest are not. Litestream 0.3.13 takes the folder as the text after `file://`, cleaned: it does
 * not decode percent signs, keeps a host, a query or a fragment in the path, and reads `file:rel`
 * from its own directory. Those forms, and a scheme not in lower case, are refused, so the folder
 * checked is the one Litestream writes.
 */
function folderOf(url: string): string | null {
  if (!/^file:/i.test(url)) return null
  if (!url.startsWith('file:///') || /[%?#]/.test(url)) {
    throw new ConfigError(
      `LITESTREAM_REPLICA_URL: Litestream would not write the folder this names (no host, relative path, percent sign, ? or #, and a lower-case scheme); write file:///ABSOLUTE/PATH, got '${url}'`,
    )
  }
  return resolve(url.slice('file://'.length))
}

function metricsUrlOf(addr: string): string {
  const match = /^(.*):([0-9]{1,5})$/.exec(addr)
  if (match === null || Number(match[2]) > 65535) {
    throw new ConfigError(`LITESTREAM_METRICS_ADDR must be HOST:PORT, as Litestream's addr, such as 127.0.0.1:9090; got '${addr}'`)
  }
  return `http://${match[1] || '127.0.0.1'}:${match[2]}/metrics`
}

/** LITESTREAM_REPLICA_URL and LITESTREAM_METRICS_ADDR, for a SQLite store only; null when neither is set. */
export function parseReplication(env: NodeJS.ProcessEnv, database: DatabaseConfig): ReplicationConfig | null {
  const replicaUrl = env.LITESTREAM_REPLICA_URL || null
  const addr = env.LITESTREAM_METRICS_ADDR || null
  if (database.kind !== 'sqlite' || database.path === ':memory:' || (replicaUrl === null && addr === null)) return null
  return {
    databasePath: resolve(database.path),
    replicaFolder: replicaUrl === null ? null : folderOf(replicaUrl),
    metricsUrl: addr === null ? null : metricsUrlOf(addr),
    warns: env.PLANTSTORE_REPLICATION_WARNINGS !== 'off',
  }
}
