import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { type Authenticator, OpaqueTokenAuthenticator } from './auth.js'
import { errorBody } from './errors.js'
import { registerGracefulClose } from './graceful-close.js'
import { clientError, frameworkError, methodNotAllowed, sendError } from './http-errors.js'
import { BODY_LIMIT, registerJsonBodyParser } from './json-body.js'
import { RequestLogController } from './logging.js'
import { LazyRequestLogger } from './request-logger.js'
import { registerMetrics } from './metrics.js'
import { opsRoutes } from './routes/ops.js'
import { plantRoutes } from './routes/plants.js'
import type { Config } from './config.js'
import type { PlantStore } from './store/store.js'
import { PATTERN_MEANINGS } from './schemas.js'
import { createValidatorCompiler } from './validation.js'

export type AppConfig = Pick<Config, 'rateLimit' | 'redisUrl' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'>

export interface AppOptions {
  store: PlantStore
  logger: FastifyBaseLogger | false
  config: AppConfig
  authenticator?: Authenticator
}

const REQUEST_ID = /^[\x20-\x7e]{1,128}$/

/** The client's X-Request-Id when it is 1 to 128 printable ASCII characters, else a new one. */
function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id']
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
}

const API_DESCRIPTION = `Keeps plants in a store: create, list and delete, each behind a bearer token.
A caller sees only its own plants; a token with the scope plants:admin sees every plant.
Every error, on every path, is an Error object whose \`error\` is the HTTP status.`

export async function buildApp({ store, logger, config, authenticator }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    logController: new RequestLogController(),
    childLoggerFactory: (logger, bindings, options) => new LazyRequestLogger(logger, bindings, options),
    genReqId: requestId,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    // A client that sends its request too slowly is cut off (408), so it cannot hold a connection.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(config.requestTimeoutMs / 4))),
    },
    // The default is slightly above common load balancer idle timeouts, so the balancer closes first.
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Refused by registerGracefulClose instead, so that the answer has the Error shape.
    return503OnClosing: false,
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
  })
  app.setValidatorCompiler(createValidatorCompiler(PATTERN_MEANINGS))
  app.setErrorHandler(sendError)
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody(404, `no route for ${request.method} ${request.url.split('?')[0]}`))
  })
  registerJsonBodyParser(app)
  // Hooks in callback style: they run on every request, and an async hook costs a promise each.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id)
    reply.header('x-content-type-options', 'nosniff')
    done()
  })
  registerGracefulClose(app)
  const metrics = registerMetrics(app)
  store.registerMetrics?.(metrics)

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Plant Store', version: '1.0.0', description: API_DESCRIPTION },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An opaque `pst_…` token made with `plantstore token create`',
          },
        },
      },
      tags: [
        { name: 'plants', description: 'The plants of the caller' },
        { name: 'operations', description: 'Health, readiness and metrics; no token needed' },
      ],
    },
  })
  const allowedMethods = methodNotAllowed(app)
  await app.register(opsRoutes, { store, metrics })
  await app.register(plantRoutes, {
    store,
    authenticator: authenticator ?? new OpaqueTokenAuthenticator(store),
    rateLimit: config.rateLimit,
    redisUrl: config.redisUrl,
  })
  allowedMethods.finish()
  await app.register(swaggerUi, { routePrefix: '/docs' })
  return app
}
