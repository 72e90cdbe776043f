import cluster, { type Worker } from 'node:cluster'
import { AggregatorRegistry, Counter, Histogram, type Registry } from 'prom-client'

/** A worker asks the primary for the cluster's text, and gets it. */
const REQUEST = 'plantstore:metrics-request'
const ANSWER = 'plantstore:metrics-answer'
/** The primary asks each worker for its registry's metrics, and gets them. */
const COLLECT = 'plantstore:metrics-collect'
const COLLECTED = 'plantstore:metrics-collected'
/** A worker tells the primary its counters and histograms, unasked, at most this often. */
const REPORT = 'plantstore:metrics-report'
const REPORT_INTERVAL_MS = 1_000
/** A worker that has not answered by then (busy, or dying) counts with its last answer. */
const COLLECT_TIMEOUT_MS = 2_000
/** The asking worker waits for the primary a little longer than the primary waits for the workers. */
const ANSWER_TIMEOUT_MS = 6_000

/** One registry's metrics, as `getMetricsAsJSON` gives them. */
type Snapshot = Awaited<ReturnType<Registry['getMetricsAsJSON']>>

interface MetricsAnswer {
  type: typeof ANSWER
  id: number
  text?: string
  error?: string
}

interface Collected {
  type: typeof COLLECTED
  id: number
  metrics: Snapshot
}

interface Reported {
  type: typeof REPORT
  metrics: Snapshot
}

/** This registry's counters and histograms: in memory, read without asking the database. */
const countersOf = async (registry: Registry): Promise<Snapshot> =>
  (await Promise.all(
    registry
      .getMetricsAsArray()
      .filter((metric) => metric instanceof Counter || metric instanceof Histogram)
      .map((metric) => metric.get()),
  )) as Snapshot

/**
 * Sends this worker's counters and histograms to the primary every REPORT_INTERVAL_MS when they
 * changed, not only when a scrape asks: a worker killed between scrapes loses at most the last
 * second's counts, not everything since the last scrape.
 */
function reportCounters(registry: Registry): void {
  let sent = ''
  const report = () => {
    void countersOf(registry).then(
      (metrics) => {
        const text = JSON.stringify(metrics)
        if (text === sent || !process.connected) return
        sent = text
        process.send?.({ type: REPORT, metrics } satisfies Reported)
      },
      () => {}, // not sent: the next report, or the last answer, stands
    )
  }
  setInterval(report, REPORT_INTERVAL_MS).unref()
}

/**
 * The text of GET /metrics. In a worker of WORKERS > 1 it is every worker's metrics, summed by
 * the primary (each scrape would otherwise see one worker at random); else this registry's.
 */
export function metricsExposition(registry: Registry): () => Promise<string> {
  if (!cluster.isWorker) return () => registry.metrics()
  reportCounters(registry)
  const waiting = new Map<number, (answer: MetricsAnswer) => void>()
  let nextId = 0
  process.on('message', (message: MetricsAnswer | { type?: unknown; id: number }) => {
    if (message?.type === ANSWER) waiting.get(message.id)?.(message as MetricsAnswer)
    else if (message?.type === COLLECT) {
      void registry.getMetricsAsJSON().then(
        (metrics) => process.send?.({ type: COLLECTED, id: message.id, metrics } satisfies Collected),
        () => {}, // unanswered: the primary counts this worker with its last answer
      )
    }
  })
  return () =>
    new Promise((resolve, reject) => {
      const id = nextId++
      const timer = setTimeout(() => settle({ type: ANSWER, id, error: 'the primary process did not answer' }), ANSWER_TIMEOUT_MS)
      const settle = (answer: MetricsAnswer) => {
        clearTimeout(timer)
        waiting.delete(id)
        if (answer.text !== undefined) resolve(answer.text)
        else reject(new Error(`cluster metrics unavailable: ${answer.error}`))
      }
      waiting.set(id, settle)
      process.send?.({ type: REQUEST, id })
    })
}

/** Counters and histograms only ever grow: what a dead worker had of them is kept. */
const cumulative = (metrics: Snapshot): Snapshot => metrics.filter((metric) => ['counter', 'histogram'].includes(String(metric.type)))

/**
 * In the primary: answers each worker's request with the metrics of all workers, summed. A
 * worker that dies (killed, out of memory) takes its counts with it; summed over the living
 * only, a counter would go back, and Prometheus would read the survivors' whole lifetime as a
 * new increase. So the primary keeps each worker's newest counters and histograms (its last
 * answer to a scrape, or its last report, sent every second), and once the worker has exited
 * they are added in for as long as the primary lives.
 */
export function answerMetricsRequests(): void {
  const latest = new Map<number, Snapshot>()
  /** Each worker's newest counters and histograms: its last report or its last answer, whichever came later. */
  const counted = new Map<number, Snapshot>()
  /** The cumulative metrics of the workers that died, folded into one now and then. */
  const retired: Snapshot[] = []
  let folding = false
  const fold = async () => {
    if (folding || retired.length < 2) return
    folding = true
    const count = retired.length
    const folded = await AggregatorRegistry.aggregate(retired.slice(0, count)).getMetricsAsJSON()
    retired.splice(0, count, folded)
    folding = false
    void fold()
  }
  const answered = new Map<number, (workerId: number) => void>()
  let nextId = 0
  /**
   * The workers that listen: only they are asked. A worker still starting (a replacement, forked
   * the moment one dies) has served nothing and cannot answer yet; asked, it held every scrape
   * for the whole COLLECT_TIMEOUT_MS.
   */
  const serving = new Set<number>()
  cluster.on('listening', (worker) => serving.add(worker.id))
  /** A worker gone stops being waited for: its last answer stands. */
  const gone = (worker: Worker) => {
    serving.delete(worker.id)
    for (const answer of [...answered.values()]) answer(worker.id)
  }
  cluster.on('disconnect', gone)

  /** Every serving worker's newest metrics (asked now, waiting COLLECT_TIMEOUT_MS at most), and the dead's. */
  const clusterText = async (): Promise<string> => {
    const id = nextId++
    const workers = Object.values(cluster.workers ?? {}).filter(
      (worker) => worker?.isConnected() === true && serving.has(worker.id),
    ) as Worker[]
    const waitingFor = new Set(workers.map((worker) => worker.id))
    if (waitingFor.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, COLLECT_TIMEOUT_MS)
        answered.set(id, (workerId) => {
          waitingFor.delete(workerId)
          if (waitingFor.size > 0) return
          clearTimeout(timer)
          resolve()
        })
        for (const worker of workers) worker.send({ type: COLLECT, id })
      })
      answered.delete(id)
    }
    const living = Object.values(cluster.workers ?? {}).map((worker) => latest.get(worker?.id ?? -1) ?? [])
    return AggregatorRegistry.aggregate([...living, ...retired]).metrics()
  }

  cluster.on('exit', (worker) => {
    gone(worker)
    const last = counted.get(worker.id)
    latest.delete(worker.id)
    counted.delete(worker.id)
    if (last === undefined) return
    retired.push(last)
    void fold()
  })
  cluster.on('message', (worker, message: Collected | { type?: unknown; id?: unknown }) => {
    if (message?.type === COLLECTED) {
      latest.set(worker.id, (message as Collected).metrics)
      counted.set(worker.id, cumulative((message as Collected).metrics))
      answered.get((message as Collected).id)?.(worker.id)
    } else if (message?.type === REPORT) {
      counted.set(worker.id, (message as Reported).metrics)
    } else if (message?.type === REQUEST) {
      clusterText().then(
        (text) => worker.send({ type: ANSWER, id: message.id, text }),
        (error: Error) => worker.send({ type: ANSWER, id: message.id, error: error.message }),
      )
    }
  })
}
