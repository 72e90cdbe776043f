import { join } from 'node:path'
import { tempFolder } from './service.js'

/** The stores the HTTP suite runs against. */
export const STORE_KINDS = ['sqlite'] as const
export type StoreKind = (typeof STORE_KINDS)[number]

export interface TestDatabase {
  url: string
  drop(): Promise<void>
}

/** A database no other test run can see. */
export async function freshDatabase(_kind: StoreKind): Promise<TestDatabase> {
  const folder = tempFolder()
  return { url: `sqlite:${join(folder.path, 'plantstore.db')}`, drop: async () => folder.remove() }
}

/**
 * Writes `count` plants of one owner straight into the database (ids firstId, firstId+1, …),
 * for tests that need more plants than requests could make in reasonable time.
 */
export async function seedPlants(
  db: TestDatabase,
  plants: { owner: string; firstId: bigint; count: number; name: (i: number) => string },
): Promise<void> {
  const { default: Database } = await import('better-sqlite3')
  const sqlite = new Database(db.url.slice('sqlite:'.length))
  try {
    const insert = sqlite.prepare('INSERT INTO plants (id, owner, name, tag, created_at) VALUES (?, ?, ?, NULL, 0)')
    sqlite.transaction(() => {
      for (let i = 0; i < plants.count; i++) insert.run(plants.firstId + BigInt(i), plants.owner, plants.name(i))
    })()
  } finally {
    sqlite.close()
  }
}
