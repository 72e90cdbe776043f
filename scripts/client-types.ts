import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { loadConfig } from '../src/config/config.js'
import { buildApp } from '../src/app.js'
import { openStore } from '../src/open-store.js'
import { freshDatabase } from '../support/databases.js'
import { REPO_ROOT } from '../support/service.js'

/** The client's types, generated from the served document and committed. */
export const CLIENT_TYPES_FILE = join(REPO_ROOT, 'packages', 'client', 'src', 'generated', 'openapi.ts')

const HEADER = `// Generated from the served OpenAPI document by \`npm run generate:client\`; do not edit.
// int64 is bigint: every id is exact. test/client.test.ts fails when this file drifts.

`

const BIGINT = ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword)

/** TypeScript types for a document: openapi-typescript's, with int64 as bigint instead of number. */
export async function clientTypes(documentText: string): Promise<string> {
  const nodes = await openapiTS(JSON.parse(documentText) as Parameters<typeof openapiTS>[0], {
    transform: (schema) => (schema.format === 'int64' ? BIGINT : undefined),
  })
  return HEADER + astToString(nodes)
}

/** The document as the service serves it, from an app on a scratch store. */
export async function servedDocument(): Promise<string> {
  const db = await freshDatabase('sqlite')
  const config = loadConfig({ DATABASE_URL: db.url })
  const store = await openStore(config.database)
  const app = await buildApp({ store, logger: false, config })
  try {
    return (await app.inject({ method: 'GET', url: '/openapi.json' })).body
  } finally {
    await app.close()
    await store.close()
    await db.drop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(CLIENT_TYPES_FILE, await clientTypes(await servedDocument()))
  console.log(`wrote ${CLIENT_TYPES_FILE}`)
}
