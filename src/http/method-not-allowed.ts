import type { FastifyInstance } from 'fastify'
import { HttpError } from './errors.js'

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/**
 * Collects the methods of every route declared after this call; `finish()` then answers the
 * other methods of each known path with 405 and an Allow header, ahead of any authentication.
 */
export function methodNotAllowed(app: FastifyInstance, handledElsewhere: readonly string[] = []): { finish(): void } {
  const methodsByUrl = new Map<string, Set<string>>()
  let collecting = true
  app.addHook('onRoute', (route) => {
    if (!collecting) return
    const methods = methodsByUrl.get(route.url) ?? new Set<string>()
    for (const method of [route.method].flat()) methods.add(method)
    methodsByUrl.set(route.url, methods)
  })
  return {
    finish() {
      collecting = false
      for (const [url, methods] of methodsByUrl) {
        const allow = METHODS.filter((method) => methods.has(method)).join(', ')
        const others = METHODS.filter((method) => !methods.has(method) && !handledElsewhere.includes(method))
        app.route({
          method: others,
          url,
          schema: { hide: true },
          handler: async () => {
            throw new HttpError(405, `this path allows only ${allow}`, { allow })
          },
        })
      }
    },
  }
}
