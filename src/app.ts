import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { guardWithToken } from './auth/guard.js'
import { OpaqueTokenAuthenticator } from './auth/opaque-tokens.js'
import type { Authenticator } from './auth/principal.js'
import type { Config } from './config/config.js'
import { type HasMetrics, RequestMetrics, createRegistry } from './observability/metrics.js'
import { RequestRecorder } from './observability/request-recorder.js'
import { opsRoutes } from './routes/ops.js'
import { plantRoutes } from './routes/plants.js'
import { webhookDeliveryRoutes } from './routes/webhook-deliveries.js'
import { webhookRoutes } from './routes/webhooks.js'
import { NAMED_SCHEMAS, PATTERN_MEANINGS } from './api/schemas.js'
import type { PlantStore } from './store/store.js'
import type { DatabaseSystem } from './store/traced-store.js'
import { BacklogMetrics } from './webhooks/backlog-metrics.js'
import { ReadinessMetric } from './observability/readiness-metric.js'
import { ReplicationLag } from './replication/replication-lag.js'
import { startDeliveries } from './webhooks/start.js'
import { documentOptions } from './http/document.js'
import { answerServerLevelRequests, clientError, frameworkError, sendError } from './http/error-handler.js'
import { errorBody, missingHost } from './http/errors.js'
import { BODY_LIMIT, registerJsonBodyParser } from './http/json-body.js'
import { methodNotAllowed } from './http/method-not-allowed.js'
import { shedOverload } from './http/overload.js'
import { requestId } from './http/request-id.js'
import { decorateRequestStore } from './http/request-store.js'
import { registerGracefulClose } from './lifecycle/shutdown.js'
import { pruneEveryMinute } from './lifecycle/pruning.js'
import { createValidatorCompiler } from './http/validation.js'

type AppConfig = Pick<
  Config,
  | 'rateLimit'
  | 'overload'
  | 'redisUrl'
  | 'requestTimeoutMs'
  | 'keepAliveTimeoutMs'
  | 'trustProxy'
  | 'corsOrigins'
  | 'idempotencyTtlMs'
  | 'requireIfMatch'
  | 'console'
  | 'jwt'
  | 'publicUrl'
  | 'webhooks'
  | 'replication'
>

interface AppOptions {
  store: PlantStore
  logger: FastifyBaseLogger | false
  config: AppConfig
  /** The clock tokens' expiry and caches are judged by. */
  now?: () => number
  /** Set while tracing is on (an SDK registered): every request gets a SERVER span, its store calls spans of their own. */
  tracing?: { serviceName: string; databaseSystem: DatabaseSystem } | null
}

/**
 * TRUST_PROXY=N: the nearest N hops are proxies (Fastify's own number form now trusts none).
 * It cannot tell a proxy from a client that reaches the port directly: list addresses when it can.
 */
const trustHops =
  (hops: number) =>
  (_address: string, hop: number): boolean =>
    hop < hops

/**
 * Opaque tokens from the store, and an identity provider's JWTs beside them when JWT_ISSUER is
 * set (jose is loaded only then, like the other optional parts: idle memory stays small).
 */
async function authenticatorFor(
  store: PlantStore,
  config: AppConfig,
  now: () => number,
  warn: (details: Record<string, unknown>, message: string) => void,
): Promise<{ authenticator: Authenticator; parts: HasMetrics[] }> {
  const opaque = new OpaqueTokenAuthenticator(store.tokens, now)
  if (config.jwt === null) return { authenticator: opaque, parts: [] }
  const { EitherTokenAuthenticator, JwtAuthenticator } = await import('./auth/jwt-tokens.js')
  const jwt = new JwtAuthenticator(config.jwt, now, undefined, warn)
  return { authenticator: new EitherTokenAuthenticator(opaque, jwt), parts: [jwt] }
}

/** Litestream's lag behind the database, read while the app runs, when LITESTREAM_METRICS_ADDR names where. */
function replicationLagOf(app: FastifyInstance, config: AppConfig, store: PlantStore): HasMetrics[] {
  const { replication } = config
  if (replication?.metricsUrl == null) return []
  // Every worker of WORKERS reads Litestream (the gauge's 'max' across workers needs no one
  // worker to live on); one logs what it finds (a loss at warn, a recovery at info), the others at debug.
  const log = (details: Record<string, unknown>, message: string, level: 'warn' | 'info' | 'debug') =>
    replication.warns ? app.log[level](details, message) : app.log.debug(details, message)
  const lag = new ReplicationLag(replication.metricsUrl, replication.databasePath, log, Date.now, store.touch?.bind(store) ?? null)
  lag.start()
  app.addHook('onClose', (_app, done) => {
    lag.stop()
    done()
  })
  return [lag]
}

export async function buildApp({ store, logger, config, now = Date.now, tracing = null }: AppOptions): Promise<FastifyInstance> {
  const requestMetrics = new RequestMetrics()
  const metrics = createRegistry()
  const spans =
    tracing === null ? null : new (await import('./http/server-spans.js')).ServerSpans(tracing.serviceName, store, tracing.databaseSystem)
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    logController: new RequestRecorder(requestMetrics, spans),
    genReqId: requestId,
    // The client address (rate limit per address, logs) comes from X-Forwarded-For only as far as this allows.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    // A client that sends its request too slowly is cut off (408), so it cannot hold a connection.
    requestTimeout: config.requestTimeoutMs,
    http: {
      // A missing Host is answered by the hook below, with the Error body, not by Node's bare 400.
      requireHostHeader: false,
      headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(config.requestTimeoutMs / 4))),
    },
    // The default is slightly above common load balancer idle timeouts, so the balancer closes first.
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Refused by registerGracefulClose instead, so that the answer has the Error shape.
    return503OnClosing: false,
    frameworkErrors: frameworkError,
    // The router answers a longer path segment as a bad URL before the method and the token are
    // judged; the URL is bounded by the header size limit, and each route's schema checks its id.
    routerOptions: { maxParamLength: 16_384 },
    clientErrorHandler: clientError,
  })
  if (spans === null) decorateRequestStore(app, () => store)
  else spans.decorate(app)
  app.setValidatorCompiler(createValidatorCompiler(PATTERN_MEANINGS, NAMED_SCHEMAS))
  app.setErrorHandler(sendError)
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(404, `no route for ${request.method} ${request.url.split('?')[0]}`))
  })
  registerJsonBodyParser(app)
  // Hooks in callback style: they run on every request, and an async hook costs a promise each.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    reply.header('x-content-type-options', 'nosniff')
    done(request.headers.host === undefined && request.raw.httpVersion === '1.1' ? missingHost() : undefined)
  })
  registerGracefulClose(app)

  for (const schema of NAMED_SCHEMAS) app.addSchema(schema)
  await app.register(swagger, documentOptions(config.publicUrl))
  // Known paths are collected from here on; CORS asks only when a request comes.
  const isKnownPath = (path: string) => allowedMethods.allowOf(path) !== null
  if (config.corsOrigins !== null) await (await import('./http/cors.js')).registerCors(app, config.corsOrigins, isKnownPath)
  // With CORS on, OPTIONS belongs to the preflight on every known path.
  const allowedMethods = methodNotAllowed(app, config.corsOrigins === null ? [] : ['OPTIONS'])
  await app.register(opsRoutes, { metrics })
  const { authenticator, parts: authParts } = await authenticatorFor(store, config, now, (details, message) =>
    app.log.warn(details, message),
  )
  await app.register(async (guarded) => {
    // Before the token's lookup: a refused request costs no database call.
    await shedOverload(guarded, config.overload)
    await guardWithToken(guarded, { authenticator, rateLimit: config.rateLimit, redisUrl: config.redisUrl })
    await guarded.register(plantRoutes, { idempotencyTtlMs: config.idempotencyTtlMs, requireIfMatch: config.requireIfMatch })
    await guarded.register(webhookRoutes, { config: config.webhooks })
    await guarded.register(webhookDeliveryRoutes)
  })
  const deliveries = config.webhooks.deliver ? [startDeliveries(app, store.outbox, config.webhooks, tracing !== null)] : []
  pruneEveryMinute(app, 'expired idempotency keys', config.idempotencyTtlMs, (before, limit) =>
    store.plants.pruneIdempotencyKeys(before, limit),
  )
  // Finished events are pruned where they are delivered, after the retention period.
  if (config.webhooks.deliver)
    pruneEveryMinute(app, 'finished webhook events', config.webhooks.retentionMs, (before, limit) => store.outbox.prune(before, limit))
  const readiness = new ReadinessMetric(() => store.ping())
  const replicationLag = replicationLagOf(app, config, store)
  for (const part of [requestMetrics, store, ...authParts, new BacklogMetrics(store.outbox), readiness, ...deliveries, ...replicationLag])
    part.registerMetrics(metrics)
  // The page shows the document's own title, no address bar and no link to where the page
  // fetched it (/docs/json): users are told of /openapi.json only.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { layout: 'BaseLayout' },
    theme: { title: 'Plant Store API', css: [{ filename: 'plantstore.css', content: '.swagger-ui .info .url { display: none; }' }] },
  })
  if (config.console) await app.register((await import('./routes/console.js')).consoleRoutes)
  allowedMethods.finish()
  answerServerLevelRequests(app.server, allowedMethods.allowOf)
  return app
}
