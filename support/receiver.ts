import { once } from 'node:events'
import { type IncomingHttpHeaders, type Server, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  /** The request's path, as in receiver.url(path). */
  path: string
  headers: IncomingHttpHeaders
  /** The body exactly as it arrived. */
  body: string
  /** performance.now() when the whole body had arrived. */
  at: number
}

/** What the receiver answers one request with. */
export interface Answer {
  status: number
  headers?: Record<string, string>
  /** Never answer: the request stays open until the sender gives up or the receiver closes. */
  hold?: boolean
}

/**
 * A webhook receiver on 127.0.0.1 that records every request (tests and the benchmark). It answers with `answer`, which
 * sees the request and how many have arrived before it; by default 200.
 */
export class Receiver {
  readonly received: Received[] = []
  /** Requests answered, kept or not. */
  count = 0
  /** Whether requests are kept in `received`; a benchmark's flood is only counted. */
  keep = true
  answer: (request: Received, index: number) => Answer = () => ({ status: 200 })
  private waiters: { check: () => boolean; resolve: () => void }[] = []

  private constructor(private readonly server: Server) {}

  static async start(port = 0): Promise<Receiver> {
    const server = createServer()
    const receiver = new Receiver(server)
    server.keepAliveTimeout = 1_000
    server.on('request', (request, response) => {
      let body = ''
      request.setEncoding('utf8')
      request.on('data', (chunk: string) => (body += chunk))
      request.on('end', () => {
        const received = { path: request.url ?? '', headers: request.headers, body, at: performance.now() }
        const index = receiver.count++
        if (receiver.keep) receiver.received.push(received)
        const { status, headers = {}, hold = false } = receiver.answer(received, index)
        if (!hold) response.writeHead(status, headers).end()
        receiver.waiters = receiver.waiters.filter((waiter) => {
          if (!waiter.check()) return true
          waiter.resolve()
          return false
        })
      })
    })
    server.listen(port, '127.0.0.1')
    await once(server, 'listening')
    return receiver
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`
  }

  /** Resolves once `check` holds for what was received, within `timeoutMs`. */
  async until(check: (received: Received[]) => boolean, timeoutMs = 10_000): Promise<Received[]> {
    if (check(this.received)) return this.received
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the receiver got ${this.received.length} requests, not what was awaited`)),
        timeoutMs,
      )
      this.waiters.push({
        check: () => check(this.received),
        resolve: () => {
          clearTimeout(timer)
          resolve()
        },
      })
    })
    return this.received
  }

  /** Plant ids of the received bodies, read without rounding. */
  ids(): bigint[] {
    return this.received.map((request) => BigInt(/"id":(-?[0-9]+)/.exec(request.body)?.[1] ?? 'x'))
  }

  async close(): Promise<void> {
    this.server.closeAllConnections()
    this.server.close()
    await once(this.server, 'close')
  }
}

/** Lets time pass without a request: to show that nothing more arrives. */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs `work` with a receiver of its own, closed afterwards whatever happens. */
export async function withReceiver(work: (receiver: Receiver) => Promise<void>): Promise<void> {
  const receiver = await Receiver.start()
  try {
    await work(receiver)
  } finally {
    await receiver.close()
  }
}
