import { type StoreKind, type TestDatabase, freshDatabase } from '../../support/databases.js'
import { type Service, makeToken, runCli, startService } from '../../support/service.js'
import { Api } from './api.js'
import type { Fixture } from './in-process.js'

export type { Fixture } from './in-process.js'

export interface ServiceFixture extends Fixture {
  db: TestDatabase
  service: Service
}

/** `bin/plantstore serve` in a child process on a database of its own, and a client that checks answers against its OpenAPI document. */
export async function startFixture(kind: StoreKind, env: Record<string, string> = {}): Promise<ServiceFixture> {
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
    tokenCli: (...args) => runCli(['token', ...args], { DATABASE_URL: db.url }),
    logs: () => service.stdout(),
    async close() {
      await service.stop()
      await db.drop()
    },
  }
}
