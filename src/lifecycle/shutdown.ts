import type { FastifyInstance } from 'fastify'
import { shuttingDown } from '../http/errors.js'

/**
 * Behaviour while the app closes: requests that arrive on open connections get a 503 Error,
 * every answer closes its connection, and connections that go idle are closed until the
 * server is shut. (Fastify closes idle connections only once, at the start of the close,
 * so a request in flight then would leave its keep-alive connection open to the deadline.)
 */
export function registerGracefulClose(app: FastifyInstance): void {
  let closing = false
  let sweeper: NodeJS.Timeout | undefined
  app.addHook('preClose', async () => {
    closing = true
    sweeper = setInterval(() => app.server.closeIdleConnections(), 50)
    sweeper.unref()
  })
  app.addHook('onClose', async () => {
    clearInterval(sweeper)
  })
  app.addHook('onRequest', (_request, _reply, done) => {
    done(closing ? shuttingDown() : undefined)
  })
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })
}
