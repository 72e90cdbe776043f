import { readdirSync, readFileSync } from 'node:fs'

export interface Migration {
  version: number
  name: string
  sql: string
}

/** The numbered `.sql` files of `migrations/<dialect>/`, in order. */
export function readMigrations(dialect: 'sqlite' | 'postgres'): Migration[] {
  const folder = new URL(`../../../migrations/${dialect}/`, import.meta.url)
  return readdirSync(folder)
    .filter((file) => /^[0-9]+_[a-z0-9_]+\.sql$/.test(file))
    .map((file) => ({
      version: Number(file.slice(0, file.indexOf('_'))),
      name: file,
      sql: readFileSync(new URL(file, folder), 'utf8'),
    }))
    .sort((a, b) => a.version - b.version)
}
