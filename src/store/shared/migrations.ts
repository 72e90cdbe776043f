import { readdirSync, readFileSync } from 'node:fs'

interface Migration {
  version: number
  name: string
  sql: string
}

/** The numbered `.sql` files of `migrations/<dialect>/` not yet in `applied`, in order. */
export function pendingMigrations(dialect: 'sqlite' | 'postgres', applied: ReadonlySet<number>): Migration[] {
  const folder = new URL(`../../../../migrations/${dialect}/`, import.meta.url)
  return readdirSync(folder)
    .filter((file) => /^[0-9]+_[a-z0-9_]+\.sql$/.test(file))
    .map((file) => ({
      version: Number(file.slice(0, file.indexOf('_'))),
      name: file,
      sql: readFileSync(new URL(file, folder), 'utf8'),
    }))
    .filter((migration) => !applied.has(migration.version))
    .sort((a, b) => a.version - b.version)
}
