import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs'
import { SqliteStore } from '../store/sqlite/store.js'
import { Database } from '../store/sqlite/driver.js'
import { BackupError, checkPlantStoreFile, syncToDisk } from './sqlite-file.js'

export interface Restore {
  plants: number
  /** Where the database that was replaced now is; null when there was none. */
  previous: string | null
}

/** `20261125T221800Z`: a UTC time that sorts, for the name of the database moved aside. */
const stamp = (now: Date) =>
  now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')

/**
 * Refuses while another process (a service) has the database open: leaving WAL mode needs the
 * only connection, so SQLite itself says whether there is another. Left in rollback mode, the
 * file holds every commit in itself, with no -wal beside it.
 */
function closeForRestore(path: string): void {
  const db = new Database(path, { fileMustExist: true, timeout: 0 })
  try {
    let mode: unknown
    try {
      mode = db.pragma('journal_mode = DELETE', { simple: true })
    } catch {
      mode = 'busy'
    }
    if (mode !== 'delete') throw new BackupError(`a process (a running service?) has ${path} open: stop it, then restore`, 1)
  } finally {
    db.close()
  }
}

/**
 * Puts the checked copy `from` in place of the database at `target`: the current one (with any
 * -wal and -shm) is moved aside to `<target>.before-restore-<UTC time>`, never deleted; the copy
 * is written under a temporary name, synced, renamed into place and migrated.
 */
export async function restoreSqlite(target: string, from: string, now = new Date()): Promise<Restore> {
  const { plants } = checkPlantStoreFile(from)
  let previous: string | null = null
  if (existsSync(target)) {
    closeForRestore(target)
    previous = `${target}.before-restore-${stamp(now)}`
    if (existsSync(previous)) throw new BackupError(`${previous} exists already; try again in a second`, 1)
    renameSync(target, previous)
    for (const suffix of ['-wal', '-shm']) if (existsSync(target + suffix)) renameSync(target + suffix, previous + suffix)
  }
  const partial = `${target}.restoring`
  try {
    copyFileSync(from, partial)
    syncToDisk(partial)
    renameSync(partial, target)
    syncToDisk(target)
  } catch (error) {
    rmSync(partial, { force: true })
    // Nothing changes: the database moved aside goes back.
    if (previous !== null && !existsSync(target)) {
      renameSync(previous, target)
      for (const suffix of ['-wal', '-shm']) if (existsSync(previous + suffix)) renameSync(previous + suffix, target + suffix)
    }
    throw new BackupError(`the restore failed: ${(error as Error).message}`, 1)
  }
  await (SqliteStore.open(target) as SqliteStore).close()
  return { plants, previous }
}
