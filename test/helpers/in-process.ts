import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { issueToken } from '../../src/auth/issue-token.js'
import { SCOPES } from '../../src/api/scopes.js'
import { tokenCommand } from '../../src/cli.js'
import { loadConfig } from '../../src/config/config.js'
import { buildApp } from '../../src/app.js'
import { createLogger } from '../../src/observability/logger.js'
import { openStore } from '../../src/open-store.js'
import type { PlantStore } from '../../src/store/store.js'
import { type StoreKind, freshDatabase } from '../../support/databases.js'
import type { CliResult } from '../../support/service.js'
import { Api } from './api.js'

/** What a test needs of a service, whether it runs in this process or in a child process. */
export interface Fixture {
  api: Api
  /** A token of the subject admin with every scope, as the first start prints it. */
  adminToken: string
  /** A token made by `plantstore token create --subject SUBJECT OPTIONS…`. */
  token(subject: string, ...options: string[]): Promise<string>
  /** `plantstore token …` on the service's database. */
  tokenCli(...args: string[]): Promise<CliResult>
  /** Every log line written so far. */
  logs(): string
  close(): Promise<void>
}

export interface InProcessFixture extends Fixture {
  app: FastifyInstance
  store: PlantStore
  /** Moves the authenticator's clock forward: expiry and the token cache without waiting. */
  advanceClock(ms: number): void
}

/**
 * The app built in this process on a real store of its own, reached through `inject`: for
 * table-style cases that need no process of their own. Tokens go through the CLI's own code.
 */
export async function buildFixture(kind: StoreKind, env: Record<string, string> = {}): Promise<InProcessFixture> {
  const db = await freshDatabase(kind)
  const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'info', ...env })
  const store = await openStore(config.database)
  let offset = 0
  let logs = ''
  const logger = createLogger(config.logLevel, {
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs += chunk.toString()
        done()
      },
    }),
  })
  const app = await buildApp({ store, logger, config, now: () => Date.now() + offset })
  await app.ready()
  const tokenCli = async (...args: string[]): Promise<CliResult> => {
    const result = { code: 0 as number | null, stdout: '', stderr: '' }
    const out = { stdout: (line: string) => (result.stdout += `${line}\n`), stderr: (line: string) => (result.stderr += `${line}\n`) }
    try {
      await tokenCommand(store.tokens, args, out)
    } catch (error) {
      result.code = 2
      out.stderr((error as Error).message)
    }
    return result
  }
  const api = await Api.over(async (method, url, headers, payload) => {
    const answer = await app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) })
    const answerHeaders = new Headers()
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const one of [value ?? []].flat()) answerHeaders.append(name, String(one))
    }
    return { status: answer.statusCode, headers: answerHeaders, text: answer.body }
  })
  return {
    app,
    store,
    api,
    adminToken: (await issueToken(store.tokens, { subject: 'admin', scopes: SCOPES, name: 'first start', expiresAt: null })).token,
    async token(subject, ...options) {
      const result = await tokenCli('create', '--subject', subject, ...options)
      if (result.code !== 0) throw new Error(`token create failed: ${result.stderr}`)
      return result.stdout.trim()
    },
    tokenCli,
    logs: () => logs,
    advanceClock: (ms) => {
      offset += ms
    },
    async close() {
      await app.close()
      await store.close()
      await db.drop()
    },
  }
}

/** Runs `work` on a SQLite fixture built with `env`, closed afterwards whatever happens. */
export async function withFixture(env: Record<string, string>, work: (fx: InProcessFixture) => Promise<void>): Promise<void> {
  const fx = await buildFixture('sqlite', env)
  try {
    await work(fx)
  } finally {
    await fx.close()
  }
}
