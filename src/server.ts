import cluster from 'node:cluster'
import type { FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { issueFirstToken } from './auth/issue-token.js'
import { SCOPES } from './api/scopes.js'
import type { Config } from './config/config.js'
import { buildApp } from './app.js'
import { createLogger, flushLogs } from './observability/logger.js'
import type { Tracing } from './observability/tracing.js'
import { openStore } from './open-store.js'
import { checkReplicaFolder } from './replication/replica-folder.js'
import { type PlantStore, StoreUnavailableError } from './store/store.js'
import { logWriteTurnsTo } from './store/sqlite/write-turns.js'
import { superviseWorkers } from './workers.js'
import { checkSecretKey, sealedSecrets } from './webhooks/secret-key-check.js'
import { sealKeptSecrets } from './webhooks/seal-kept-secrets.js'
import { readOrCreateSecretKey, secretKeyFileOf, warnIfReadableByOthers } from './webhooks/secret-key-file.js'

/** Graceful stop must end within 10 s; past this, the process gives up on stragglers. */
const SHUTDOWN_DEADLINE_MS = 9_000

/** On the very first start there is no way to call the API, so make one admin token and show it once. */
async function createFirstToken(store: PlantStore, write: (text: string) => void, logger?: Logger): Promise<void> {
  let first: Awaited<ReturnType<typeof issueFirstToken>>
  try {
    first = await issueFirstToken(store.tokens, { subject: 'admin', scopes: SCOPES, name: 'first start', expiresAt: null })
  } catch (error) {
    // A server that cannot take writes now (a standby, a failover) must not keep the instance
    // from serving reads; the token is made at the next start on a primary.
    if (!(error instanceof StoreUnavailableError) || logger === undefined) throw error
    logger.warn({ err: error }, 'the first-start token could not be made: the database takes no writes now')
    return
  }
  if (first === null) return
  write(
    `plantstore: first start: created token ${first.id} for subject "admin" with scopes ${SCOPES.join(' ')}.\n` +
      'It is shown only this once; keep it somewhere safe:\n\n' +
      `${first.token}\n\n` +
      'Make more with: ./bin/plantstore token create --subject NAME [--scope plants:read,plants:write] [--expires-in 30d]\n',
  )
}

function closeOnSignals(app: FastifyInstance, store: PlantStore, logger: Logger, tracing: Tracing | null): void {
  let closing = false
  const close = (signal: NodeJS.Signals) => {
    if (closing) return
    closing = true
    const closingAt = Date.now()
    logger.info({ signal }, 'closing: finishing requests in flight')
    setTimeout(() => {
      logger.error('requests still in flight after the shutdown deadline; exiting')
      process.exit(1)
    }, SHUTDOWN_DEADLINE_MS).unref()
    let exportCutOff = false
    app
      .close()
      // The spans of every request answered, in what time is left before the deadline.
      .then(async () => {
        if (tracing === null) return
        exportCutOff = !(await tracing.shutdown(Math.max(500, SHUTDOWN_DEADLINE_MS - 1_500 - (Date.now() - closingAt))))
      })
      .then(() => store.close())
      .then(() => logger.info('closed'))
      .then(() => flushLogs(logger))
      // A worker's channel to its primary would keep the process alive.
      .then(() => cluster.isWorker && process.disconnect())
      // An export still waiting on a collector would keep it alive until the exporter's own timeout.
      .then(() => exportCutOff && process.exit())
      .catch((error: unknown) => {
        logger.error({ err: error }, 'error while closing')
        process.exitCode = 1
      })
  }
  // `on`, not `once`: a worker may get the signal twice (from its primary and from the terminal).
  process.on('SIGTERM', close)
  process.on('SIGINT', close)
}

const showToken = (text: string) => process.stderr.write(text)

/** OpenTelemetry's SDK, loaded only when an OTLP endpoint is configured. */
async function startTracingIfOn(config: Config, logger: Logger): Promise<Tracing | null> {
  if (config.tracing === null) return null
  const { startTracing } = await import('./observability/tracing.js')
  return startTracing(config.tracing, logger)
}

/**
 * Webhook secrets are sealed by default: without WEBHOOK_SECRET_KEY, a SQLite service makes its
 * own key beside the database, so a copy of the database alone cannot sign webhooks. PostgreSQL
 * instances must share one key, which no instance can make alone: there it stays opt-in. A key
 * is never made over secrets already sealed, and a start whose key opens none of them refuses.
 * With a key, secrets kept unsealed are sealed.
 */
async function withSecretKey(config: Config, store: PlantStore, logger: Logger): Promise<Config> {
  const { database, webhooks } = config
  const sealed = await sealedSecrets(store.subscriptions)
  let key = webhooks.secretKey
  let missing = 'set WEBHOOK_SECRET_KEY to the key they were sealed with'
  if (key === null && database.kind === 'sqlite' && database.path !== ':memory:') {
    const path = secretKeyFileOf(database.path)
    missing = `put the key they were sealed with in ${path}, or set WEBHOOK_SECRET_KEY to it`
    const read = readOrCreateSecretKey(path, sealed.length === 0)
    if (read?.created) logger.info({ path }, 'webhook secrets are sealed with a key made in this file: keep a copy apart from the database')
    else if (read !== null) warnIfReadableByOthers(path, logger)
    key = read?.key ?? null
  }
  checkSecretKey(sealed, key, missing)
  if (key !== null) await sealKeptSecrets(store.subscriptions, key, logger)
  return { ...config, webhooks: { ...webhooks, secretKey: key } }
}

export async function serve(config: Config): Promise<void> {
  if (config.replication?.replicaFolder) checkReplicaFolder(config.replication.replicaFolder)
  const logger = createLogger(config.logLevel)
  if (config.workers > 1 && cluster.isPrimary) {
    // Migrations and the first-start token, once, before any worker opens the database.
    return superviseWorkers(
      config.workers,
      logger,
      async () => {
        const store = await openStore(config.database, logger)
        try {
          await createFirstToken(store, showToken, logger)
          // Read or made once, here: a worker replaced later seals and signs with this same key.
          const { secretKey } = (await withSecretKey(config, store, logger)).webhooks
          if (secretKey !== null) process.env.WEBHOOK_SECRET_KEY = secretKey.toString('base64')
        } finally {
          await store.close()
        }
      },
      // PostgreSQL's claims let every worker deliver; SQLite's are one process's, as is Litestream.
      { oneLead: config.database.kind === 'sqlite', writeTurns: config.database.kind === 'sqlite' },
    )
  }
  logWriteTurnsTo(logger)
  const tracing = await startTracingIfOn(config, logger)
  const store = await openStore(config.database, logger)
  if (!cluster.isWorker) await createFirstToken(store, showToken, logger)
  config = await withSecretKey(config, store, logger)
  const databaseSystem = config.database.kind === 'sqlite' ? 'sqlite' : 'postgresql'
  const app = await buildApp({ store, logger, config, tracing: tracing && { serviceName: tracing.serviceName, databaseSystem } })
  closeOnSignals(app, store, logger, tracing)
  await app.listen({ port: config.port, host: config.host })
}
