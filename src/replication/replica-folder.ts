import { accessSync, constants, existsSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The folder itself, or the nearest folder above it that exists: where Litestream must write first. */
function nearestExisting(path: string): string {
  let at = path
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at)
  return at
}

/**
 * Refuses a `file` replica that Litestream could not write: it would log "monitor error …
 * permission denied" at each sync while the service served without replication. Names the
 * replica, the folder that refuses and why (a volume owned by root, or mounted read-only, or a
 * file where the folder would be).
 */
export function checkReplicaFolder(replica: string): void {
  // Litestream writes the generations beneath the replica folder, which it makes when missing.
  const folder = nearestExisting(join(replica, 'generations'))
  // A file where a folder must be (the URL names a file, or a path beneath one) refuses with
  // ENOTDIR, not EACCES: its access bits say nothing of why.
  const stats = statSync(folder, { throwIfNoEntry: false })
  if (stats !== undefined && !stats.isDirectory()) {
    throw new Error(
      `LITESTREAM_REPLICA_URL: the replica ${replica} cannot be written: ${folder} is ${stats.isFile() ? 'a file, not a folder' : 'not a folder'}; nothing would be replicated`,
    )
  }
  try {
    accessSync(folder, constants.W_OK | constants.X_OK)
  } catch (error) {
    const code = (error as { code?: string }).code
    const why = code === 'EROFS' ? 'read-only' : code === 'EACCES' ? 'permission denied' : code
    throw new Error(
      `LITESTREAM_REPLICA_URL: the replica ${replica} cannot be written: ${why} (${folder} refuses uid ${process.getuid?.() ?? '?'}); nothing would be replicated`,
      { cause: error },
    )
  }
}
