import { Gauge, type Registry } from 'prom-client'
import type { HasMetrics } from '../observability/metrics.js'
import type { Outbox, WebhookBacklog } from '../store/outbox.js'

/**
 * The outbox's backlog for /metrics, read from the database at scrape time. Every process
 * reads the same rows, so under WORKERS the processes' values are combined by max, not summed.
 * While the database cannot be read the gauges keep their last values: a scrape that failed
 * would hide every other metric (and the outage itself) from Prometheus.
 */
export class BacklogMetrics implements HasMetrics {
  constructor(private readonly outbox: Outbox) {}

  registerMetrics(registry: Registry): void {
    const outbox = this.outbox
    let reading: Promise<WebhookBacklog | null> | null = null
    const backlog = () =>
      (reading ??= outbox
        .backlog()
        .catch(() => null)
        .finally(() => (reading = null)))
    new Gauge({
      name: 'webhook_pending_events',
      help: 'Webhook events not yet delivered or given up',
      aggregator: 'max',
      registers: [registry],
      async collect() {
        const read = await backlog()
        if (read !== null) this.set(read.pending)
      },
    })
    new Gauge({
      name: 'webhook_oldest_pending_age_seconds',
      help: 'Age of the oldest webhook event not yet delivered or given up; 0 when none is pending',
      aggregator: 'max',
      registers: [registry],
      async collect() {
        const read = await backlog()
        if (read === null) return
        const oldest = read.oldestCreatedAt
        this.set(oldest === null ? 0 : Math.max(0, (Date.now() - oldest.getTime()) / 1000))
      },
    })
  }
}
