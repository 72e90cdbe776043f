import cluster from 'node:cluster'
import { AggregatorRegistry, type Registry } from 'prom-client'

const REQUEST = 'plantstore:metrics-request'
const ANSWER = 'plantstore:metrics-answer'
/** prom-client gives up on silent workers after 5 s; the asking worker waits a little longer. */
const ANSWER_TIMEOUT_MS = 6_000

interface MetricsAnswer {
  type: typeof ANSWER
  id: number
  text?: string
  error?: string
}

/**
 * The text of GET /metrics. In a worker of WORKERS > 1 it is every worker's metrics, summed by
 * the primary (each scrape would otherwise see one worker at random); else this registry's.
 */
export function metricsExposition(registry: Registry): () => Promise<string> {
  if (!cluster.isWorker) return () => registry.metrics()
  // Constructed for its side effect: the worker then answers the primary's requests for its metrics.
  new AggregatorRegistry()
  AggregatorRegistry.setRegistries([registry])
  const waiting = new Map<number, (answer: MetricsAnswer) => void>()
  let nextId = 0
  process.on('message', (message: MetricsAnswer) => {
    if (message?.type === ANSWER) waiting.get(message.id)?.(message)
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

/** In the primary: answers each worker's request with the metrics of all workers, summed. */
export function answerMetricsRequests(): void {
  const aggregator = new AggregatorRegistry()
  cluster.on('message', (worker, message: { type?: unknown; id?: unknown }) => {
    if (message?.type !== REQUEST) return
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text }),
      (error: Error) => worker.send({ type: ANSWER, id: message.id, error: error.message }),
    )
  })
}
