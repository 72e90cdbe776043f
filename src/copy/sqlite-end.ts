import type BetterSqlite3 from 'better-sqlite3'
import { Database } from '../store/sqlite/driver.js'
import { CopyError, type Column, type Value } from './shape.js'
import type { Schema, StoreEnd } from './store-end.js'

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

function toNormal(value: unknown, column: Column): Value {
  if (value === null || value === undefined) return null
  switch (column.kind) {
    case 'bool':
      return value !== 0n && value !== 0
    case 'time':
      return Number(value)
    case 'float':
      return Number(value)
    default:
      return value as Value
  }
}

function toSqlite(value: Value, column: Column): unknown {
  if (value === null) return null
  if (column.kind === 'bool') return value ? 1 : 0
  if (column.kind === 'time') return Math.trunc(value as number)
  return value
}

/** A SQLite file as one end of a copy. */
export class SqliteEnd implements StoreEnd {
  readonly label: string

  private constructor(
    private readonly db: BetterSqlite3.Database,
    path: string,
  ) {
    this.label = `sqlite:${path}`
  }

  /**
   * The source, refused while another process (a service) has it open: leaving WAL mode needs
   * the only connection, so SQLite itself says whether there is another (as restore does).
   */
  static openSource(path: string): SqliteEnd {
    let db: BetterSqlite3.Database
    try {
      db = new Database(path, { fileMustExist: true, timeout: 0 })
    } catch (error) {
      throw new CopyError(`--from ${path} cannot be opened: ${(error as Error).message}`, 1)
    }
    try {
      db.pragma('schema_version')
    } catch (error) {
      db.close()
      if ((error as { code?: string }).code !== 'SQLITE_NOTADB')
        throw new CopyError(`--from ${path} cannot be read: ${(error as Error).message}`, 1)
      throw new CopyError(`--from ${path} is not a SQLite database`, 1)
    }
    let mode: unknown
    try {
      mode = db.pragma('journal_mode = DELETE', { simple: true })
    } catch {
      mode = 'busy'
    }
    if (mode !== 'delete') {
      db.close()
      throw new CopyError(`a process (a running service?) has ${path} open: stop it, then copy`, 1)
    }
    return new SqliteEnd(db, path)
  }

  /** The target, already migrated by the store itself. */
  static openTarget(path: string): SqliteEnd {
    const db = new Database(path, { fileMustExist: true, timeout: 5000 })
    db.pragma('journal_mode = WAL')
    return new SqliteEnd(db, path)
  }

  schema(): Promise<Schema> {
    const schema: Schema = new Map()
    const tables = this.db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .pluck()
      .all() as string[]
    for (const table of tables) {
      const columns = this.db.prepare(`PRAGMA table_info(${quote(table)})`).all() as { name: string; type: string }[]
      // SQLite's declared types say only int, text or real: the PostgreSQL end, when there is one, knows better.
      schema.set(
        table,
        new Map(
          columns.map((column) => [
            column.name,
            /INT/i.test(column.type) ? 'int' : /REAL|FLOA|DOUB/i.test(column.type) ? 'float' : /BLOB/i.test(column.type) ? 'bytes' : 'text',
          ]),
        ),
      )
    }
    return Promise.resolve(schema)
  }

  appliedMigrations(): Promise<Set<number>> {
    const exists = this.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'").get()
    if (exists === undefined) return Promise.resolve(new Set())
    return Promise.resolve(new Set(this.db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]))
  }

  hasRows(table: string): Promise<boolean> {
    const exists = this.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table)
    return Promise.resolve(exists !== undefined && this.db.prepare(`SELECT 1 FROM ${quote(table)} LIMIT 1`).get() !== undefined)
  }

  beginSnapshot(): Promise<void> {
    // A deferred transaction's first read fixes what every later read sees.
    this.db.exec('BEGIN')
    this.db.prepare('SELECT count(*) FROM sqlite_schema').get()
    return Promise.resolve()
  }

  async *rows(table: string, columns: readonly Column[], size: number): AsyncGenerator<Value[][]> {
    const statement = this.db
      .prepare(`SELECT ${columns.map((column) => quote(column.name)).join(', ')} FROM ${quote(table)}`)
      .raw(true)
      .safeIntegers(true)
    let batch: Value[][] = []
    for (const row of statement.iterate() as Iterable<unknown[]>) {
      batch.push(row.map((value, i) => toNormal(value, columns[i] as Column)))
      if (batch.length === size) {
        yield batch
        batch = []
      }
    }
    if (batch.length > 0) yield batch
  }

  beginWrite(): Promise<void> {
    this.db.exec('BEGIN IMMEDIATE')
    return Promise.resolve()
  }

  private inserts = new Map<string, BetterSqlite3.Statement>()

  insert(table: string, columns: readonly Column[], rows: readonly Value[][]): Promise<void> {
    let statement = this.inserts.get(table)
    if (statement === undefined) {
      statement = this.db.prepare(
        `INSERT INTO ${quote(table)} (${columns.map((column) => quote(column.name)).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      )
      this.inserts.set(table, statement)
    }
    for (const row of rows) statement.run(row.map((value, i) => toSqlite(value, columns[i] as Column)))
    return Promise.resolve()
  }

  afterTable(): Promise<void> {
    // AUTOINCREMENT's counter (sqlite_sequence) already moved past every id inserted.
    return Promise.resolve()
  }

  lastVersion(): Promise<bigint> {
    return Promise.resolve(this.db.prepare('SELECT value FROM plant_version_counter').pluck().safeIntegers(true).get() as bigint)
  }

  raiseLastVersion(version: bigint): Promise<void> {
    this.db.prepare('UPDATE plant_version_counter SET value = max(value, ?)').run(version)
    return Promise.resolve()
  }

  commit(): Promise<void> {
    this.db.exec('COMMIT')
    return Promise.resolve()
  }

  rollback(): Promise<void> {
    if (this.db.inTransaction) this.db.exec('ROLLBACK')
    return Promise.resolve()
  }

  close(): Promise<void> {
    if (this.db.open) this.db.close()
    return Promise.resolve()
  }
}
