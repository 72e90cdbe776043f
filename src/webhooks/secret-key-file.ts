import { closeSync, existsSync, fsyncSync, linkSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { dirname } from 'node:path'

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

/** The key in `path` (32 bytes in base64, the form WEBHOOK_SECRET_KEY takes), made when there is none. */
export function readOrCreateSecretKey(path: string): { key: Buffer; created: boolean } {
  const created = !existsSync(path) && linkKey(path)
  const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')
  if (key.length !== 32) throw new Error(`the webhook secret key ${path} is not 32 bytes in base64`)
  return { key, created }
}
