import { Agent, request } from 'node:http'
import type { Receiver } from '../support/receiver.js'

export interface DeliveryLatency {
  rate: number
  events: number
  /** Acknowledgement of the create → receipt of its event, in milliseconds. */
  p50: number
  p99: number
  max: number
  /** Events not received by the end of the wait. */
  missing: number
}

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? NaN

function create(agent: Agent, url: URL, token: string, id: bigint): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = `{"id":${id},"name":"delivered plant"}`
    const sent = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': body.length },
      },
      (response) => {
        response.resume()
        response.on('end', () =>
          response.statusCode === 200 ? resolve(performance.now()) : reject(new Error(`create answered ${response.statusCode}`)),
        )
      },
    )
    sent.on('error', reject)
    sent.end(body)
  })
}

/**
 * Creates `rate` plants a second for `seconds` (in steps of 10 ms) and times each one's event
 * from the create's acknowledgement to its arrival at `receiver`, which runs in this process:
 * both times are read from one clock.
 */
export async function deliveryLatency(
  serviceUrl: string,
  token: string,
  receiver: Receiver,
  rate: number,
  seconds: number,
  firstId: bigint,
): Promise<DeliveryLatency> {
  const agent = new Agent({ keepAlive: true, maxSockets: 50 })
  const url = new URL('/plants', serviceUrl)
  const acknowledged = new Map<bigint, number>()
  const creates: Promise<void>[] = []
  const perStep = rate / 100
  const started = performance.now()
  let id = firstId
  for (let step = 0; step < seconds * 100; step++) {
    const due = started + step * 10
    const wait = due - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    for (let i = 0; i < perStep; i++) {
      const plantId = id++
      creates.push(create(agent, url, token, plantId).then((at) => void acknowledged.set(plantId, at)))
    }
  }
  await Promise.all(creates)
  agent.destroy()
  // One event per plant arrives here (this receiver has the only subscription).
  await receiver.until((received) => received.length >= acknowledged.size, 10_000).catch(() => {})
  const latencies: number[] = []
  const seen = new Set<bigint>()
  receiver.ids().forEach((eventId, i) => {
    const ackAt = acknowledged.get(eventId)
    if (ackAt === undefined || seen.has(eventId)) return
    seen.add(eventId)
    latencies.push((receiver.received[i]?.at ?? NaN) - ackAt)
  })
  latencies.sort((a, b) => a - b)
  return {
    rate,
    events: acknowledged.size,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1) ?? NaN,
    missing: acknowledged.size - latencies.length,
  }
}
