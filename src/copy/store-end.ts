import type { Column, ColumnKind, Value } from './shape.js'

/** A table as one store declares it: its columns, with their kinds where the store knows them. */
export type Schema = Map<string, Map<string, ColumnKind | null>>

/**
 * One end of a copy, on either store. As a source it reads every table in one snapshot; as a
 * target it writes them all in one transaction that commits only after the check.
 */
export interface StoreEnd {
  readonly label: string
  /** The tables and columns the store has now (after migrating, for a target). */
  schema(): Promise<Schema>
  /** The migration versions recorded in the store. */
  appliedMigrations(): Promise<Set<number>>
  /** Whether the table holds a row (false for a table that does not exist). */
  hasRows(table: string): Promise<boolean>
  /** Starts the one snapshot every read comes from. */
  beginSnapshot(): Promise<void>
  /** The table's rows, in batches of at most `size`, normal values in `columns` order. */
  rows(table: string, columns: readonly Column[], size: number): AsyncGenerator<Value[][]>
  /** Starts the one transaction every write goes into. */
  beginWrite(): Promise<void>
  insert(table: string, columns: readonly Column[], rows: readonly Value[][]): Promise<void>
  /** After a table's rows: counters that hand out ids or versions start past what was copied. */
  afterTable(table: string, columns: readonly Column[]): Promise<void>
  /** The last plant version the store's counter gave: no tag it gave may be given again. */
  lastVersion(): Promise<bigint>
  /** Moves the counter past `version` (never back), so the target never repeats a tag the source gave. */
  raiseLastVersion(version: bigint): Promise<void>
  commit(): Promise<void>
  /** Ends a snapshot or undoes a write transaction; safe when none is open. */
  rollback(): Promise<void>
  close(): Promise<void>
}
