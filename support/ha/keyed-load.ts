/**
 * Creates under load over several instances, each retried with its Idempotency-Key on the
 * next instance until the store answers for it, as a careful client does through a failover.
 */
export interface KeyedLoadReport {
  /** Ids whose create was answered 200 (first or replayed). */
  acknowledged: bigint[]
  /** Every answer by status (0: no answer, the connection failed). */
  statuses: Map<number, number>
  /** Keys whose retry was answered anything but 200: a duplicate, a mismatch, a fault. */
  wrongAnswers: string[]
  /** Per instance, the time of each 200 and each failed attempt (performance.now()). */
  timeline: { instance: number; at: number; ok: boolean }[]
  /** Keys still not answered 200 when the load ended. */
  unfinished: bigint[]
}

export interface KeyedLoadOptions {
  instances: string[]
  token: string
  workers: number
  firstId: bigint
  /** New creates start until this performance.now(); retries of started ones go on until `giveUpAt`. */
  until: () => number
  giveUpAt: () => number
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export async function keyedLoad(options: KeyedLoadOptions): Promise<KeyedLoadReport> {
  const report: KeyedLoadReport = { acknowledged: [], statuses: new Map(), wrongAnswers: [], timeline: [], unfinished: [] }
  let next = options.firstId
  const worker = async (index: number) => {
    let instance = index % options.instances.length
    while (performance.now() < options.until()) {
      const id = next++
      const key = `ha-${id}`
      const body = JSON.stringify({ name: `ha plant ${id}`, tag: 'ha' }).replace('{', `{"id":${id},`)
      for (let attempt = 0; ; attempt++) {
        if (performance.now() > options.giveUpAt()) {
          report.unfinished.push(id)
          break
        }
        let status: number
        let text = ''
        try {
          const answer = await fetch(`${options.instances[instance]}/plants`, {
            method: 'POST',
            headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json', 'idempotency-key': key },
            body,
            signal: AbortSignal.timeout(10_000),
          })
          status = answer.status
          text = await answer.text()
        } catch {
          status = 0
        }
        report.statuses.set(status, (report.statuses.get(status) ?? 0) + 1)
        report.timeline.push({ instance, at: performance.now(), ok: status === 200 })
        if (status === 200) {
          report.acknowledged.push(id)
          break
        }
        if (status !== 0 && status !== 503 && status !== 409) {
          report.wrongAnswers.push(`${key}: ${status} ${text}`)
          break
        }
        // The next try goes to the next instance, after a short wait (Retry-After is a few seconds; a test waits less).
        instance = (instance + 1) % options.instances.length
        await pause(Math.min(100 * 2 ** attempt, 1_000))
      }
    }
  }
  await Promise.all(Array.from({ length: options.workers }, (_, i) => worker(i)))
  return report
}

/** The longest time writes failed: from a failure with no 200 before it since the last 200, to the next 200. */
export function longestOutageMs(timeline: KeyedLoadReport['timeline']): number {
  const sorted = [...timeline].sort((a, b) => a.at - b.at)
  let lastOk = sorted[0]?.at ?? 0
  let failingSince: number | null = null
  let longest = 0
  for (const entry of sorted) {
    if (entry.ok) {
      if (failingSince !== null) longest = Math.max(longest, entry.at - lastOk)
      failingSince = null
      lastOk = entry.at
    } else failingSince ??= entry.at
  }
  return longest
}

/** Per instance, the first 200 after `since`'s last failure of that instance (performance.now()), or null. */
export function recoveredAt(timeline: KeyedLoadReport['timeline'], instance: number, since: number): number | null {
  const mine = timeline.filter((entry) => entry.instance === instance && entry.at >= since).sort((a, b) => a.at - b.at)
  const lastFailure = mine.filter((entry) => !entry.ok).at(-1)
  if (lastFailure === undefined) return mine.find((entry) => entry.ok)?.at ?? null
  return mine.find((entry) => entry.ok && entry.at > lastFailure.at)?.at ?? null
}
