import { closeSync, existsSync, fsyncSync, linkSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { dirname } from 'node:path'
import type { Logger } from 'pino'

/** Where the key sealing a SQLite database's webhook secrets is kept: beside it, never in it. */
export const secretKeyFileOf = (databasePath: string) => `${databasePath}.webhook-secret-key`

/**
 * Writes a key (a new one by default) 0600 under a temporary name, syncs it, then links it to
 * `path`: processes starting at once (WORKERS) all end up with the one key linked first. False
 * when another was.
 */
export function linkKey(path: string, key: Buffer = randomBytes(32)): boolean {
  const fresh = `${path}.partial-${process.pid}`
  try {
    const fd = openSync(fresh, 'w', 0o600)
    try {
      writeSync(fd, `${key.toString('base64')}\n`)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    linkSync(fresh, path)
    const folder = openSync(dirname(path), 'r')
    try {
      fsyncSync(folder)
    } finally {
      closeSync(folder)
    }
    return true
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST') return false
    throw new Error(`the webhook secret key ${path} cannot be made: ${(error as Error).message}`, { cause: error })
  } finally {
    rmSync(fresh, { force: true })
  }
}

/**
 * The key in `path` (32 bytes in base64, the form WEBHOOK_SECRET_KEY takes), made when there is
 * none and `mayCreate`; null when there is none and it may not be made.
 */
export function readOrCreateSecretKey(path: string, mayCreate: boolean): { key: Buffer; created: boolean } | null {
  if (!existsSync(path) && !mayCreate) return null
  const created = !existsSync(path) && linkKey(path)
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')
  if (key.length !== 32) throw new Error(`the webhook secret key ${path} is not 32 bytes in base64`)
  return { key, created }
}

/** The key is made 0600; one others may read (copied, restored, chmod) is said, not refused. */
export function warnIfReadableByOthers(path: string, logger: Logger): void {
  const mode = statSync(path).mode & 0o777
  if ((mode & 0o077) !== 0) logger.warn({ path, mode: mode.toString(8) }, 'the webhook secret key file can be read by others: chmod 600 it')
}
