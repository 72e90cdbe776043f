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
