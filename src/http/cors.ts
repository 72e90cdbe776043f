import cors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import { noRoute } from './errors.js'

/** What a browser app may send and read; tokens travel in a header, so there is no credentials mode. */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'If-None-Match', 'X-Request-Id']
const EXPOSED_HEADERS = [
  'Location',
  'ETag',
  'Link',
  'X-Request-Id',
  'Retry-After',
  'Idempotent-Replayed',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
]

/**
 * Lets the browsers of `origins` (or any, with `*`) call the API; preflights of the paths that
 * `isKnownPath` knows are answered 204, of any other path 404, as every method of it is.
 */
export async function registerCors(
  app: FastifyInstance,
  origins: readonly string[],
  isKnownPath: (path: string) => boolean,
): Promise<void> {
  // The plugin answers OPTIONS on every path (its route is `*`): a preflight would offer
  // GET, POST, PATCH and DELETE on a path that has none of them.
  app.addHook('onRequest', (request, _reply, done) => {
    const path = request.url.split('?')[0] ?? ''
    done(request.method === 'OPTIONS' && request.routeOptions.url === '*' && !isKnownPath(path) ? noRoute('OPTIONS', path) : undefined)
  })
  await app.register(cors, {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    optionsSuccessStatus: 204,
    // An OPTIONS without Access-Control-Request-Method is answered like a preflight, not with a
    // text/plain 400: every error of the API is the JSON Error, and this is none.
    strictPreflight: false,
    maxAge: 600,
  })
}
