import { accessSync, closeSync, constants, existsSync, fsyncSync, mkdirSync, openSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { pendingMigrations } from '../store/shared/migrations.js'
import { Database } from '../store/sqlite/driver.js'

/** A backup or restore that cannot be done: one line for the operator, and the exit code. */
export class BackupError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(oneLine(message))
  }
}

/** SQLite's own texts (an integrity check's report) may span lines; an operator's message is one. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ')

/**
 * The one line for an error met while writing `path` (a backup, or a restore's copy), when the
 * cause lies in `path`'s place rather than in the database: SQLite's "database or disk is full"
 * sends an operator after the live database, and a raw ENOTDIR names a temporary file. Null for
 * any other error.
 */
export function placeProblem(error: unknown, path: string): string | null {
  const code = (error as { code?: string }).code
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return `the disk of ${dirname(path)} is full (no room left there for ${path})`
  if (code === 'ENOTDIR') {
    for (let folder = dirname(resolve(path)); folder !== dirname(folder); folder = dirname(folder)) {
      const stat = statSync(folder, { throwIfNoEntry: false })
      if (stat !== undefined && !stat.isDirectory()) return `${folder} is a file, not a folder`
    }
  }
  return null
}

/** Syncs a file, and the folder that names it, to disk: a rename is durable only then. */
export function syncToDisk(path: string): void {
  for (const target of [path, dirname(path)]) {
    const fd = openSync(target, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  }
}

/**
 * Makes `path` an empty file only its owner can read (0600), in a folder made 0700 when missing,
 * for `VACUUM INTO` to fill: a copy holds what the database holds (token hashes, webhook
 * secrets), and SQLite would make it readable by all. Returns the first folder made, if any.
 */
export function createPrivateFile(path: string): string | undefined {
  const made = mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  closeSync(openSync(path, 'wx', 0o600))
  return made
}

/** The newest migration this version knows. */
const newestKnownMigration = () => Math.max(...pendingMigrations('sqlite', new Set()).map((migration) => migration.version))

export interface CheckedDatabase {
  plants: number
  version: number
}

/**
 * Opens `path` read-only, through SQLite: it reads the commits still in a `-wal` beside the
 * file, and changes nothing (a read-only connection never checkpoints).
 */
export function openForReading(path: string): BetterSqlite3.Database {
  // SQLite's own word for a folder is "disk I/O error", which sends an operator after the disk.
  if (statSync(path, { throwIfNoEntry: false })?.isDirectory() === true) {
    throw new BackupError(`${path} is a folder: name the backup file in it`, 2)
  }
  if (statSync(path, { throwIfNoEntry: false }) === undefined) throw new BackupError(`${path} does not exist`, 1)
  let db: BetterSqlite3.Database
  try {
    db = new Database(path, { readonly: true, fileMustExist: true })
  } catch (error) {
    throw new BackupError(`${path} cannot be opened: ${(error as Error).message}`, 1)
  }
  try {
    // The first read opens the -wal, if any: where it fails, the file is not to blame.
    db.pragma('schema_version')
  } catch (error) {
    db.close()
    const blame = (error as { code?: string }).code === 'SQLITE_CANTOPEN' ? 'cannot be opened' : 'is not a good SQLite database'
    throw new BackupError(walUnreadable(path) ?? `${path} ${blame}: ${(error as Error).message}`, 1)
  }
  return db
}

/**
 * Why commits in a `-wal` beside `path` cannot be read, when that is it: SQLite reads a `-wal`
 * only through a `-shm` index beside it, which it must create when missing (a crashed
 * machine's files often come without one), so a folder that cannot be written refuses the
 * open. Reading the file as immutable would skip the `-wal`, and with it the last commits.
 */
function walUnreadable(path: string): string | null {
  const wal = statSync(`${path}-wal`, { throwIfNoEntry: false })
  if (wal === undefined || wal.size === 0 || existsSync(`${path}-shm`)) return null
  try {
    accessSync(dirname(path), constants.W_OK)
    return null
  } catch (error) {
    const code = (error as { code?: string }).code
    const why = code === 'EROFS' ? 'read-only' : code === 'EPERM' ? 'immutable' : 'permission denied'
    return (
      `${path}-wal holds commits that SQLite reads only through ${path}-shm, which it cannot create in ${dirname(path)} (${why}): ` +
      `copy ${path} and ${path}-wal to a folder that can be written, and restore from there`
    )
  }
}

/**
 * Checks that `db` (read from `path`) is a whole Plant Store database this version can serve:
 * a SQLite file, `PRAGMA integrity_check` ok, Plant Store's tables, no migration newer than
 * this version's.
 */
export function checkPlantStoreDatabase(db: BetterSqlite3.Database, path: string): CheckedDatabase {
  let problems: string[]
  try {
    problems = (db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check)
  } catch (error) {
    throw new BackupError(`${path} is not a good SQLite database: ${(error as Error).message}`, 1)
  }
  if (problems.join() !== 'ok') throw new BackupError(`${path} fails SQLite's integrity check: ${problems.join('; ')}`, 1)
  const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[])
  for (const table of ['schema_migrations', 'plants', 'tokens']) {
    if (!tables.has(table)) throw new BackupError(`${path} is no Plant Store database: it has no ${table} table`, 1)
  }
  const version = (db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number | null) ?? 0
  const known = newestKnownMigration()
  if (version > known) {
    throw new BackupError(`${path} was made by a newer Plant Store (migration ${version}; this version knows up to ${known})`, 1)
  }
  return { plants: db.prepare('SELECT count(*) FROM plants').pluck().get() as number, version }
}

/** `checkPlantStoreDatabase` on the file at `path`. */
export function checkPlantStoreFile(path: string): CheckedDatabase {
  const db = openForReading(path)
  try {
    return checkPlantStoreDatabase(db, path)
  } finally {
    db.close()
  }
}
