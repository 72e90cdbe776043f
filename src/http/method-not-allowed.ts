import type { FastifyInstance } from 'fastify'
import { notAllowed } from './errors.js'

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE']

/** What a known path answers to a method it does not allow. */

/**
 * Collects the methods of every route declared after this call; `finish()` then answers the
 * other methods of each known path with 405 and an Allow header, ahead of any authentication
 * and before any body is read: whatever the body, the method is judged first. `allowOf(path)`
 * gives the Allow of a path (CONNECT, which never reaches the router, needs it).
 */
export function methodNotAllowed(
  app: FastifyInstance,
  handledElsewhere: readonly string[] = [],
): { finish(): void; allowOf(path: string): string | null } {
  const methodsByUrl = new Map<string, Set<string>>()
  let collecting = true
  app.addHook('onRoute', (route) => {
    if (!collecting) return
    const methods = methodsByUrl.get(route.url) ?? new Set<string>()
    for (const method of [route.method].flat()) methods.add(method)
    methodsByUrl.set(route.url, methods)
  })
  const allowByPath: { pattern: RegExp; allow: string }[] = []
  return {
    allowOf(path) {
      return allowByPath.find(({ pattern }) => pattern.test(path))?.allow ?? null
    },
    finish() {
      collecting = false
      for (const [url, methods] of methodsByUrl) {
        const allow = METHODS.filter((method) => methods.has(method)).join(', ')
        // hasRoute: a plugin may declare a route without announcing it (swagger-ui's GET /docs/).
        const others = METHODS.filter(
          (method) => !methods.has(method) && !handledElsewhere.includes(method) && !app.hasRoute({ url, method: method as 'GET' }),
        )
        allowByPath.push({ pattern: new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+')}$`), allow })
        app.route({
          method: others,
          url,
          schema: { hide: true },
          onRequest: (_request, _reply, done) => done(notAllowed(allow)),
          handler: async () => {
            throw notAllowed(allow)
          },
        })
      }
    },
  }
}
