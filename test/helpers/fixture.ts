import { Api } from './api.js'
import { type StoreKind, type TestDatabase, freshDatabase } from './databases.js'
import { type Service, makeToken, startService } from './service.js'

export interface Fixture {
  db: TestDatabase
  service: Service
  api: Api
  /** The token the first start printed: subject admin, every scope. */
  adminToken: string
  token(subject: string, ...options: string[]): Promise<string>
  close(): Promise<void>
}

/** A running service on a database of its own, and a client that checks answers against its OpenAPI document. */
export async function startFixture(kind: StoreKind, env: Record<string, string> = {}): Promise<Fixture> {
  const db = await freshDatabase(kind)
  const service = await startService({ DATABASE_URL: db.url, ...env })
  const adminToken = /^(pst_\S+)$/m.exec(service.stderr())?.[1]
  if (adminToken === undefined) throw new Error(`no first-start token on standard error: ${service.stderr()}`)
  return {
    db,
    service,
    api: await Api.connect(service.url),
    adminToken,
    token: (subject, ...options) => makeToken(db.url, subject, ...options),
    async close() {
      await service.stop()
      await db.drop()
    },
  }
}
