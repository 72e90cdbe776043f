import { existsSync, renameSync, rmSync } from 'node:fs'
import { SqliteStore } from '../store/sqlite/store.js'
import { Database } from '../store/sqlite/driver.js'
import {
  BackupError,
  checkPlantStoreDatabase,
  checkPlantStoreFile,
  createPrivateFile,
  openForReading,
  placeProblem,
  syncToDisk,
} from './sqlite-file.js'

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
 * Checks `from` and copies it to `to` through SQLite (`VACUUM INTO`, on the connection that
 * checked it): the copy holds what SQLite reads, commits still in the source's `-wal` included,
 * which a copy of the file's bytes would lose. The copy is checked in turn: it is what is restored.
 */
function copyChecked(from: string, to: string): number {
  const source = openForReading(from)
  try {
    checkPlantStoreDatabase(source, from)
    source.prepare('VACUUM INTO ?').run(to)
  } catch (error) {
    if (error instanceof BackupError) throw error
    throw new BackupError(`${from} cannot be copied: ${placeProblem(error, to) ?? (error as Error).message}`, 1)
  } finally {
    source.close()
  }
  return checkPlantStoreFile(to).plants
}

/**
 * Puts a checked copy of `from` in place of the database at `target` (its folder made when
 * missing): the current one (with any -wal and -shm) is moved aside to
 * `<target>.before-restore-<UTC time>`, never deleted; the copy is written under a temporary
 * name, synced, renamed into place and migrated.
 */
export async function restoreSqlite(target: string, from: string, now = new Date()): Promise<Restore> {
  if (existsSync(target)) closeForRestore(target)
  const partial = `${target}.restoring`
  rmSync(partial, { force: true })
  // A refusal changes nothing: a folder made here goes again.
  const madeFolder = createPrivateFile(partial)
  let plants: number
  try {
    plants = copyChecked(from, partial)
    syncToDisk(partial)
  } catch (error) {
    rmSync(partial, { force: true })
    if (madeFolder !== undefined) rmSync(madeFolder, { recursive: true, force: true })
    if (error instanceof BackupError) throw error
    throw new BackupError(`the restore failed: ${(error as Error).message}`, 1)
  }
  let previous: string | null = null
  try {
    if (existsSync(target)) {
      const aside = `${target}.before-restore-${stamp(now)}`
      if (existsSync(aside)) throw new BackupError(`${aside} exists already; try again in a second`, 1)
      renameSync(target, aside)
      previous = aside
      for (const suffix of ['-wal', '-shm']) if (existsSync(target + suffix)) renameSync(target + suffix, previous + suffix)
    }
    renameSync(partial, target)
    syncToDisk(target)
  } catch (error) {
    rmSync(partial, { force: true })
    // Nothing changes: the database moved aside goes back.
    if (previous !== null && !existsSync(target)) {
      renameSync(previous, target)
      for (const suffix of ['-wal', '-shm']) if (existsSync(previous + suffix)) renameSync(previous + suffix, target + suffix)
    }
    if (error instanceof BackupError) throw error
    throw new BackupError(`the restore failed: ${(error as Error).message}`, 1)
  }
  await (SqliteStore.open(target) as SqliteStore).close()
  return { plants, previous }
}
