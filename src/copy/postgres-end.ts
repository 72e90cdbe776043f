import pg from 'pg'
import { CopyError, type Column, type ColumnKind, type Value } from './shape.js'
import type { Schema, StoreEnd } from './store-end.js'

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** int8 as an exact bigint (never a double), the rest as pg gives them. */
const TYPES = {
  getTypeParser(oid: number, format?: string) {
    if (oid === 20) return (text: string) => BigInt(text)
    return pg.types.getTypeParser(oid, format as 'text')
  },
}

const KINDS: Record<string, ColumnKind> = {
  bigint: 'int',
  integer: 'int',
  smallint: 'int',
  boolean: 'bool',
  'timestamp with time zone': 'time',
  'timestamp without time zone': 'time',
  'double precision': 'float',
  real: 'float',
  numeric: 'float',
  bytea: 'bytes',
}

/** The array type each kind is sent as, for one INSERT … SELECT FROM unnest(…) per batch. */
const ARRAY_TYPES: Record<ColumnKind, string> = {
  int: 'bigint[]',
  text: 'text[]',
  bool: 'boolean[]',
  time: 'timestamptz[]',
  float: 'float8[]',
  bytes: 'bytea[]',
}

function toNormal(value: unknown, column: Column): Value {
  if (value === null || value === undefined) return null
  switch (column.kind) {
    case 'int':
      return typeof value === 'bigint' ? value : BigInt(value as number)
    case 'time':
      return Number(value)
    default:
      return value as Value
  }
}

function toPostgres(value: Value, column: Column): unknown {
  if (value === null) return null
  if (column.kind === 'int') return `${value as bigint}`
  if (column.kind === 'time') return new Date(value as number).toISOString()
  return value
}

/** Times leave the server as Unix milliseconds (cut as a JavaScript Date would cut them): no date text to parse. */
const selected = (column: Column) =>
  column.kind === 'time' ? `floor(extract(epoch FROM ${quote(column.name)}) * 1000)::int8` : quote(column.name)

/** A PostgreSQL database as one end of a copy, on one connection of its own. */
export class PostgresEnd implements StoreEnd {
  readonly label: string
  private cursorCount = 0

  private constructor(
    private readonly client: pg.Client,
    url: string,
  ) {
    // Never the password: the label is printed.
    const { host, pathname } = new URL(url)
    this.label = `postgres://${host}${pathname}`
  }

  static async open(url: string, option: '--from' | '--to'): Promise<PostgresEnd> {
    const client = new pg.Client({ connectionString: url, types: TYPES, connectionTimeoutMillis: 10_000 })
    try {
      await client.connect()
    } catch (error) {
      await client.end().catch(() => {})
      throw new CopyError(`${option}: the PostgreSQL database cannot be reached: ${(error as Error).message}`, 1)
    }
    // A copy is one long transaction: no statement limit a server or role may set applies to it.
    await client.query('SET statement_timeout = 0')
    return new PostgresEnd(client, url)
  }

  async schema(): Promise<Schema> {
    const { rows } = await this.client.query<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT c.table_name, c.column_name, c.data_type FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
       WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' ORDER BY c.table_name, c.ordinal_position`,
    )
    const schema: Schema = new Map()
    for (const row of rows) {
      let table = schema.get(row.table_name)
      if (table === undefined) schema.set(row.table_name, (table = new Map()))
      table.set(row.column_name, KINDS[row.data_type] ?? 'text')
    }
    return schema
  }

  async appliedMigrations(): Promise<Set<number>> {
    const { rows } = await this.client.query<{ exists: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS exists")
    if (!rows[0]?.exists) return new Set()
    const applied = await this.client.query<{ version: number }>('SELECT version FROM schema_migrations')
    return new Set(applied.rows.map((row) => row.version))
  }

  async hasRows(table: string): Promise<boolean> {
    const { rows } = await this.client.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [quote(table)])
    if (!rows[0]?.exists) return false
    return (await this.client.query(`SELECT 1 FROM ${quote(table)} LIMIT 1`)).rowCount === 1
  }

  async beginSnapshot(): Promise<void> {
    // One snapshot for every table: what a writer commits meanwhile is not half in the copy.
    await this.client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
  }

  async *rows(table: string, columns: readonly Column[], size: number): AsyncGenerator<Value[][]> {
    const cursor = `copy_${++this.cursorCount}`
    await this.client.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT ${columns.map(selected).join(', ')} FROM ${quote(table)}`)
    for (;;) {
      const { rows } = await this.client.query({ text: `FETCH ${size} FROM ${cursor}`, rowMode: 'array' })
      if (rows.length === 0) break
      yield (rows as unknown[][]).map((row) => row.map((value, i) => toNormal(value, columns[i] as Column)))
    }
    await this.client.query(`CLOSE ${cursor}`)
  }

  async beginWrite(): Promise<void> {
    await this.client.query('BEGIN')
    // A second copy into the same database waits here, then finds it not empty; a service's writes wait too.
    await this.client.query('LOCK TABLE plants, tokens, webhook_subscriptions IN SHARE ROW EXCLUSIVE MODE')
  }

  async insert(table: string, columns: readonly Column[], rows: readonly Value[][]): Promise<void> {
    const arrays = columns.map((column, i) => rows.map((row) => toPostgres(row[i] ?? null, column)))
    const names = columns.map((column) => quote(column.name)).join(', ')
    const unnest = columns.map((column, i) => `$${i + 1}::${ARRAY_TYPES[column.kind]}`).join(', ')
    // Ids are copied as they are, identity columns included: tokens and events keep their ids.
    await this.client.query(`INSERT INTO ${quote(table)} (${names}) OVERRIDING SYSTEM VALUE SELECT * FROM unnest(${unnest})`, arrays)
  }

  async afterTable(table: string, columns: readonly Column[]): Promise<void> {
    for (const column of columns) {
      const { rows } = await this.client.query<{ sequence: string | null }>('SELECT pg_get_serial_sequence($1, $2) AS sequence', [
        quote(table),
        column.name,
      ])
      const sequence = rows[0]?.sequence
      if (sequence) {
        await this.client.query(
          `SELECT setval($1, GREATEST((SELECT max(${quote(column.name)}) FROM ${quote(table)}), 1), (SELECT count(*) > 0 FROM ${quote(table)}))`,
          [sequence],
        )
      }
    }
  }

  async lastVersion(): Promise<bigint> {
    const { rows } = await this.client.query<{ last: bigint }>(
      'SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END AS last FROM plant_versions',
    )
    return rows[0]?.last as bigint
  }

  async raiseLastVersion(version: bigint): Promise<void> {
    // setval is not undone by a rollback: harmless, it only ever moves the counter forward.
    await this.client.query(
      `SELECT setval('plant_versions', GREATEST($1::int8, (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM plant_versions)))`,
      [`${version}`],
    )
  }

  async commit(): Promise<void> {
    await this.client.query('COMMIT')
  }

  async rollback(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => {})
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {})
  }
}
