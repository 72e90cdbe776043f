import { readdirSync, readFileSync } from 'node:fs'

interface Migration {
  version: number
  name: string
  sql: string
}

/** Every numbered `.sql` file of `migrations/<dialect>/`, in order. */
export function knownMigrations(dialect: 'sqlite' | 'postgres'): Migration[] {
  const folder = new URL(`../../../../migrations/${dialect}/`, import.meta.url)
  return readdirSync(folder)
    .filter((file) => /^[0-9]+_[a-z0-9_]+\.sql$/.test(file))
    .map((file) => ({
      version: Number(file.slice(0, file.indexOf('_'))),
      name: file,
      sql: readFileSync(new URL(file, folder), 'utf8'),
    }))
    .sort((a, b) => a.version - b.version)
}

/** The numbered `.sql` files of `migrations/<dialect>/` not yet in `applied`, in order. */
export function pendingMigrations(dialect: 'sqlite' | 'postgres', applied: ReadonlySet<number>): Migration[] {
  return knownMigrations(dialect).filter((migration) => !applied.has(migration.version))
}

export interface AppliedMigration {
  version: number
  name: string
}

/** What a database holds against what this release knows: applied, pending, and applied by a newer release. */
export interface MigrationStatus {
  applied: string[]
  pending: string[]
  /** Applied by a release newer than this one: this release has no such file. */
  unknown: string[]
}

export function migrationStatus(dialect: 'sqlite' | 'postgres', applied: readonly AppliedMigration[]): MigrationStatus {
  const known = knownMigrations(dialect)
  const knownVersions = new Set(known.map((migration) => migration.version))
  const appliedVersions = new Set(applied.map((migration) => migration.version))
  return {
    applied: known.filter((migration) => appliedVersions.has(migration.version)).map((migration) => migration.name),
    pending: known.filter((migration) => !appliedVersions.has(migration.version)).map((migration) => migration.name),
    unknown: [...applied]
      .sort((a, b) => a.version - b.version)
      .filter((migration) => !knownVersions.has(migration.version))
      .map((migration) => migration.name),
  }
}
