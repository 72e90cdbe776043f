import { existsSync, linkSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { Database } from '../store/sqlite/driver.js'
import { BackupError, checkPlantStoreFile, createPrivateFile, placeProblem, syncToDisk } from './sqlite-file.js'

/** How long the copy may wait for a lock a writer holds. */
const LOCK_WAIT_MS = 10_000

export interface Backup {
  path: string
  bytes: number
  plants: number
  seconds: number
}

/**
 * A consistent copy of the SQLite database at `source`, made with `VACUUM INTO` while the
 * service runs and writes. VACUUM INTO reads in one read transaction: in WAL mode that is a
 * snapshot the writers never block and never change, so it holds every write committed before
 * it began, nothing half done, and finishes whatever the write load. (The online backup API
 * copies page by page and starts over whenever another process writes: under a steady write
 * load it may never finish.) The copy is written under a temporary name beside `to`, checked
 * (integrity, schema), synced, then linked to `to`, which is never overwritten. The copy is made
 * 0600, and a folder made for it 0700, as the database is.
 */
export function backupSqlite(source: string, to: string): Backup {
  const started = performance.now()
  if (existsSync(to)) throw new BackupError(`${to} exists; a backup never overwrites a file`, 2)
  if (!existsSync(source)) throw new BackupError(`there is no database at ${source} to back up`, 1)
  const partial = join(dirname(to), `.${basename(to)}.partial-${process.pid}`)
  try {
    rmSync(partial, { force: true })
    createPrivateFile(partial)
    const db = new Database(source, { fileMustExist: true, timeout: LOCK_WAIT_MS })
    try {
      db.prepare('VACUUM INTO ?').run(partial)
    } finally {
      db.close()
    }
    const { plants } = checkPlantStoreFile(partial)
    syncToDisk(partial)
    // A link fails if `to` appeared meanwhile: unlike a rename, it never replaces a file.
    linkSync(partial, to)
    rmSync(partial)
    syncToDisk(to)
    return { path: to, bytes: statSync(to).size, plants, seconds: (performance.now() - started) / 1000 }
  } catch (error) {
    const code = (error as { code?: string }).code
    // Below a file (ENOTDIR) there is nothing to remove, and no way to look.
    if (code !== 'ENOTDIR') rmSync(partial, { force: true })
    if (error instanceof BackupError) throw error
    if (code === 'EEXIST') throw new BackupError(`${to} exists; a backup never overwrites a file`, 2)
    throw new BackupError(`the backup failed: ${placeProblem(error, to) ?? (error as Error).message}`, 1)
  }
}
