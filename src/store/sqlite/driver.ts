import { createRequire } from 'node:module'
import type BetterSqlite3 from 'better-sqlite3'

/**
 * The better-sqlite3 for this runtime. Version 12 wraps statements in node::ObjectWrap, and
 * since Node.js 24.19 a build of it aborts the process when a statement is freed by the garbage
 * collector outside JavaScript ("Assertion failed: (env) != nullptr"). Version 13, on Node-API,
 * has no such wrapper, but asks for Node-API 10, which no Node.js 20 has: it crashes there.
 * So 13 wherever Node-API 10 exists (Node.js 22.14 and later), 12 elsewhere.
 */
const driver = Number(process.versions.napi) >= 10 ? 'better-sqlite3-13' : 'better-sqlite3'

export const Database = createRequire(import.meta.url)(driver) as typeof BetterSqlite3
