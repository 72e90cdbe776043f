import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { noRoute } from '../http/errors.js'

/** The console's files: plain ES modules, HTML and CSS, served as they are in the repository. */
export const CONSOLE_ROOT = fileURLToPath(new URL('../../../console/', import.meta.url))

/**
 * Scripts and styles from this origin only, no inline code, no request to another origin, and
 * never inside a frame (clickjacking): the page holds a bearer token.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * `GET /console` and its files (CONTRACT section 20). Outside the token guard: the page holds no
 * data, and every call it makes to the API carries the token the person typed in.
 */
export async function consoleRoutes(app: FastifyInstance): Promise<void> {
  const page = readFileSync(new URL('index.html', `file://${CONSOLE_ROOT}`), 'utf8')
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('content-security-policy', CONSOLE_CSP)
    reply.header('referrer-policy', 'no-referrer')
    done(null, payload)
  })
  app.get('/console', { schema: { hide: true } }, (_request, reply) => reply.type('text/html; charset=utf-8').send(page))
  await app.register(fastifyStatic, { root: CONSOLE_ROOT, prefix: '/console/', wildcard: false, decorateReply: false })
  // A missing file under /console/ is answered here, inside this scope, so that its 404 (the same
  // Error body as anywhere) carries the headers above too: the root's handler would not.
  await app.register(
    async (files) => {
      files.setNotFoundHandler(async (request) => {
        throw noRoute(request.method, request.url.split('?')[0] ?? '')
      })
    },
    { prefix: '/console' },
  )
}
