/**
 * What `plantstore copy` moves, in a form both stores share. SQLite keeps times as Unix
 * milliseconds and booleans as 0/1; PostgreSQL as timestamptz and boolean: a column's kind says
 * how a value crosses, and every value is held in one normal form on the way.
 */
export type ColumnKind = 'int' | 'text' | 'bool' | 'time' | 'float' | 'bytes'

export interface Column {
  name: string
  kind: ColumnKind
}

/** int: bigint (exact over int64); time: Unix milliseconds; bool: boolean; bytes: Buffer. */
export type Value = bigint | string | boolean | number | Buffer | null

/** Parents before children, so that a foreign key always finds its row; any other table after them. */
export const TABLE_ORDER = ['plants', 'tokens', 'idempotency_keys', 'webhook_subscriptions', 'webhook_deliveries']

/** The tables that make a target "not empty": copying onto them would mix two stores. */
export const TABLES_THAT_MUST_BE_EMPTY = ['plants', 'tokens', 'webhook_subscriptions']

/**
 * Bookkeeping of each store's own, never copied as rows: the target's migrations are its own;
 * the counter plant versions are drawn from (a table on SQLite, a sequence on PostgreSQL) is
 * carried across as one number (StoreEnd.lastVersion); SQLite's webhook_backlog is kept by its
 * triggers as the events arrive.
 */
export const NOT_COPIED = new Set(['schema_migrations', 'plant_version_counter', 'webhook_backlog'])

export function orderTables(names: Iterable<string>): string[] {
  const rank = (name: string) => {
    const index = TABLE_ORDER.indexOf(name)
    return index === -1 ? TABLE_ORDER.length : index
  }
  return [...names].filter((name) => !NOT_COPIED.has(name)).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
}

/** A command that cannot be done as asked: one line, and its exit code (2: refused before writing). */
export class CopyError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message)
  }
}
