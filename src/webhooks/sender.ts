import http from 'node:http'
import https from 'node:https'
import type { Duplex } from 'node:stream'
import ipaddr from 'ipaddr.js'
import type { AddressPolicy } from './address-policy.js'
import { signature } from './secrets.js'
import { EVENT_HEADER } from '../api/events.js'

/** Bytes of a receiver's answer that are read; the rest is not waited for. */
const ANSWER_BYTES = 4096
/**
 * How long the body is read once the status line and headers are in: they are the receiver's
 * answer (a 2xx is a delivery), and the body is only text for the operator's record.
 */
export const BODY_WAIT_MS = 500

export interface Attempt {
  url: string
  messageId: string
  /** The event type, in the plantstore-event header. */
  event: string
  body: string
  /** The whsec_ secrets that sign it, unsealed: the current one first, and during a rotation the previous one. */
  secrets: string[]
  /** The traceparent of the write that made the event, when there was a trace. */
  traceParent: string | null
  /** The traceparent header sent with the attempt (set by the traced sender: its CLIENT span's). */
  traceparent?: string
}

/** Sends one attempt; `Sender` itself, or the same with a span around each attempt. */
export interface AttemptSender {
  send(attempt: Attempt): Promise<AttemptResult>
  close(): void
}

/** An answer (any status), or why there was none. */
export type AttemptResult = { status: number; retryAfterS: number | null; answer: string } | { error: string; blocked: boolean }

/** Retry-After in seconds, or as an HTTP date; null when absent or unreadable. */
function retryAfterOf(value: string | undefined, now: number): number | null {
  if (value === undefined) return null
  if (/^[0-9]{1,9}$/.test(value)) return Number(value)
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000))
}

/**
 * POSTs one event with node:http(s): Standard Webhooks headers, no redirects followed, the
 * status line and headers within `timeoutMs`, then at most a few KiB of the body, read for at
 * most BODY_WAIT_MS and never past `timeoutMs`. Connections are
 * kept alive between attempts; every new connection resolves through the address policy.
 */
export class Sender implements AttemptSender {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
  }

  /** Requests not yet settled: closing the sender ends them. */
  private readonly inFlight = new Set<http.ClientRequest>()

  constructor(
    private readonly policy: AddressPolicy,
    private readonly timeoutMs: number,
  ) {}

  send(attempt: Attempt): Promise<AttemptResult> {
    const url = new URL(attempt.url)
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
    // An address in the URL is never looked up, so the policy is asked here.
    if (ipaddr.isValid(host) && !this.policy.permits(host)) {
      return Promise.resolve({ error: `${host} is an address webhooks may not reach`, blocked: true })
    }
    const protocol = url.protocol === 'https:' ? 'https:' : 'http:'
    const timestamp = Math.floor(Date.now() / 1000)
    return new Promise((resolve) => {
      let settled = false
      const settle = (result: AttemptResult) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        this.inFlight.delete(request)
        resolve(result)
      }
      const request = (protocol === 'https:' ? https : http).request(url, {
        method: 'POST',
        agent: this.agents[protocol],
        lookup: this.policy.lookup,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(attempt.body),
          'user-agent': 'plantstore-webhooks/1.0',
          [EVENT_HEADER]: attempt.event,
          'webhook-id': attempt.messageId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': attempt.secrets.map((secret) => signature(secret, attempt.messageId, timestamp, attempt.body)).join(' '),
          ...(attempt.traceparent === undefined ? {} : { traceparent: attempt.traceparent }),
        },
      })
      const deadline = Date.now() + this.timeoutMs
      let timer = setTimeout(() => {
        request.destroy()
        settle({ error: `no answer within ${this.timeoutMs} ms`, blocked: false })
      }, this.timeoutMs)
      /** Set once the status line and headers are in: they are the answer, whatever the body does. */
      let answered: (() => void) | null = null
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A body that breaks (a bad chunk, bytes after it) comes after the answer, and does not replace it.
        if (answered !== null) answered()
        else settle({ error: error.message, blocked: error.code === 'EBLOCKED' })
      })
      // Node hands a 101 to an 'upgrade' listener and, without one, drops it unanswered.
      request.on('upgrade', (response: http.IncomingMessage, socket: Duplex) => {
        socket.destroy()
        settle({ status: response.statusCode ?? 101, retryAfterS: null, answer: 'switching protocols, which does not take a webhook' })
      })
      request.on('response', (response) => {
        let answer = ''
        const status = response.statusCode ?? 0
        // Node's client takes any three digits (999, 000): outside 100-599 it is no HTTP answer.
        const done = (answered = () => {
          if (status < 100 || status > 599)
            settle({
              error: `the receiver answered status ${String(status).padStart(3, '0')}, which is not an HTTP status`,
              blocked: false,
            })
          else settle({ status, retryAfterS: retryAfterOf(response.headers['retry-after'], Date.now()), answer })
        })
        // The answer is in: a body that never ends (or trickles) is cut, and the status stands.
        clearTimeout(timer)
        timer = setTimeout(
          () => {
            response.destroy()
            done()
          },
          Math.max(0, Math.min(BODY_WAIT_MS, deadline - Date.now())),
        )
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => {
          answer += chunk
          if (answer.length >= ANSWER_BYTES) {
            answer = answer.slice(0, ANSWER_BYTES)
            response.destroy()
            done()
          }
        })
        response.on('end', done)
        response.on('error', done)
        response.on('close', done)
      })
      this.inFlight.add(request)
      request.end(attempt.body)
    })
  }

  /** Ends every attempt under way (each settles with an error) and every kept connection. */
  close(): void {
    for (const request of this.inFlight) request.destroy(new Error('the sender closed'))
    this.agents['http:'].destroy()
    this.agents['https:'].destroy()
  }
}
