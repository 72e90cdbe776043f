import type { DatabaseConfig } from '../config/config.js'
import { pendingMigrations } from '../store/shared/migrations.js'
import { TableChecksum } from './checksum.js'
import { PostgresEnd } from './postgres-end.js'
import { CopyError, TABLES_THAT_MUST_BE_EMPTY, orderTables, type Column } from './shape.js'
import { SqliteEnd } from './sqlite-end.js'
import type { Schema, StoreEnd } from './store-end.js'

const BATCH = 5000

export interface CopiedTable {
  name: string
  rows: number
  checksum: string
}

export interface CopyReport {
  tables: CopiedTable[]
  /** The last version the source's counter gave, which the target's counter is now at or past. */
  lastVersion: bigint
  seconds: number
}

/** Hears how far the copy is: the table and its rows so far. */
export type CopyProgress = (table: string, rows: number) => void

const dialect = (config: DatabaseConfig) => config.kind

function checkSourceSchema(config: DatabaseConfig, applied: Set<number>): void {
  if (applied.size === 0) throw new CopyError('--from holds no Plant Store database (no migration was ever applied to it)', 1)
  const known = new Set(pendingMigrations(dialect(config), new Set()).map((migration) => migration.version))
  const unknown = [...applied].filter((version) => !known.has(version))
  if (unknown.length > 0) {
    throw new CopyError(`--from was migrated by a newer Plant Store (migration ${unknown.join(', ')}): copy with that version`, 1)
  }
  const pending = pendingMigrations(dialect(config), applied)
  if (pending.length > 0) {
    throw new CopyError(
      `--from lacks migrations ${pending.map((migration) => migration.name).join(', ')}: run plantstore migrate with DATABASE_URL set to it first`,
      1,
    )
  }
}

async function refuseNewer(config: DatabaseConfig, applied: Set<number>): Promise<void> {
  const known = new Set(pendingMigrations(dialect(config), new Set()).map((migration) => migration.version))
  const unknown = [...applied].filter((version) => !known.has(version))
  if (unknown.length > 0) {
    throw new CopyError(
      `--to was migrated by a newer Plant Store (migration ${unknown.join(', ')}): copy with that version (nothing was written)`,
      2,
    )
  }
}

async function refuseUnlessEmpty(target: StoreEnd): Promise<void> {
  const held: string[] = []
  for (const table of TABLES_THAT_MUST_BE_EMPTY) if (await target.hasRows(table)) held.push(table)
  if (held.length > 0) {
    throw new CopyError(`--to already holds ${held.join(', ')}: copy only into an empty database (nothing was written)`, 2)
  }
}

async function openTargetAsItIs(config: DatabaseConfig): Promise<StoreEnd | null> {
  if (config.kind === 'postgres') return PostgresEnd.open(config.url, '--to')
  const { existsSync } = await import('node:fs')
  return existsSync(config.path) ? SqliteEnd.openTarget(config.path) : null
}

/** Brings the target's schema up to date with this version's own migrations, as `plantstore migrate` does. */
async function migrate(config: DatabaseConfig): Promise<void> {
  if (config.kind === 'sqlite') {
    const { SqliteStore } = await import('../store/sqlite/store.js')
    await SqliteStore.open(config.path).close()
    return
  }
  const { PostgresStore } = await import('../store/postgres/store.js')
  await (await PostgresStore.open(config)).close()
}

/**
 * The columns copied for each table: all the source's, each of which the target must have too
 * (else nothing is copied: "everything" means every column). A column's kind comes from the
 * PostgreSQL end when there is one.
 */
function copyPlan(source: Schema, target: Schema, kindsFrom: Schema): { table: string; columns: Column[] }[] {
  const missing: string[] = []
  for (const table of orderTables(source.keys())) {
    const targetColumns = target.get(table)
    if (targetColumns === undefined) missing.push(table)
    else
      for (const column of (source.get(table) as Map<string, unknown>).keys())
        if (!targetColumns.has(column)) missing.push(`${table}.${column}`)
  }
  if (missing.length > 0) {
    throw new CopyError(
      `the target has no place for ${missing.join(', ')} of the source (a schema changed by hand?): nothing was copied`,
      1,
    )
  }
  return orderTables(target.keys())
    .filter((table) => source.has(table))
    .map((table) => {
      const sourceColumns = source.get(table) as Map<string, unknown>
      const columns = [...(target.get(table) as Map<string, unknown>).keys()]
        .filter((name) => sourceColumns.has(name))
        .map((name) => ({ name, kind: kindsFrom.get(table)?.get(name) ?? target.get(table)?.get(name) ?? 'text' }))
      return { table, columns }
    })
}

/**
 * Copies everything one store keeps into another: read in one snapshot, written in one
 * transaction, and committed only when every table's rows and checksum agree between the two.
 */
export async function copyStore(from: DatabaseConfig, to: DatabaseConfig, progress: CopyProgress = () => {}): Promise<CopyReport> {
  const started = performance.now()
  const source = from.kind === 'sqlite' ? SqliteEnd.openSource(from.path) : await PostgresEnd.open(from.url, '--from')
  let target: StoreEnd | null = null
  try {
    checkSourceSchema(from, await source.appliedMigrations())
    const before = await openTargetAsItIs(to)
    if (before !== null) {
      try {
        await refuseNewer(to, await before.appliedMigrations())
        await refuseUnlessEmpty(before)
      } finally {
        await before.close()
      }
    }
    await migrate(to)
    target = to.kind === 'sqlite' ? SqliteEnd.openTarget(to.path) : await PostgresEnd.open(to.url, '--to')
    const sourceSchema = await source.schema()
    const targetSchema = await target.schema()
    const plan = copyPlan(
      sourceSchema,
      targetSchema,
      to.kind === 'postgres' ? targetSchema : from.kind === 'postgres' ? sourceSchema : targetSchema,
    )

    await source.beginSnapshot()
    await target.beginWrite()
    await refuseUnlessEmpty(target)
    const copied = new Map<string, TableChecksum>()
    for (const { table, columns } of plan) {
      const sum = new TableChecksum()
      for await (const rows of source.rows(table, columns, BATCH)) {
        for (const row of rows) sum.add(columns, row)
        await target.insert(table, columns, rows)
        progress(table, sum.rows)
      }
      await target.afterTable(table, columns)
      copied.set(table, sum)
    }
    const lastVersion = await source.lastVersion()
    await target.raiseLastVersion(lastVersion)
    const differences: string[] = []
    for (const { table, columns } of plan) {
      const written = new TableChecksum()
      for await (const rows of target.rows(table, columns, BATCH)) for (const row of rows) written.add(columns, row)
      const read = copied.get(table) as TableChecksum
      if (!written.equals(read))
        differences.push(`${table}: ${read.rows} rows read (${read.short}), ${written.rows} written (${written.short})`)
    }
    if ((await target.lastVersion()) < lastVersion)
      differences.push(`the version counter: ${lastVersion} read, ${await target.lastVersion()} written`)
    if (differences.length > 0) throw new CopyError(`the target differs from the source, nothing was kept: ${differences.join('; ')}`, 1)
    await target.commit()
    return {
      tables: plan.map(({ table }) => ({
        name: table,
        rows: (copied.get(table) as TableChecksum).rows,
        checksum: (copied.get(table) as TableChecksum).short,
      })),
      lastVersion,
      seconds: (performance.now() - started) / 1000,
    }
  } finally {
    await target?.rollback()
    await target?.close()
    await source.rollback()
    await source.close()
  }
}
