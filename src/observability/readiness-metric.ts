import { Gauge, type Registry } from 'prom-client'
import type { HasMetrics } from './metrics.js'

/** A scrape waits at most this long for the database before it reads not ready. */
const PING_BOUND_MS = 1_000

/**
 * `plantstore_ready`: 1 while the database answers, as `/readyz` says, 0 when it does not;
 * asked at each scrape (never on a request's path), so an alert needs no probe of its own.
 * Over WORKERS the lowest worker's value counts.
 */
export class ReadinessMetric implements HasMetrics {
  constructor(private readonly ping: () => Promise<void>) {}

  registerMetrics(registry: Registry): void {
    const ping = this.ping
    new Gauge({
      name: 'plantstore_ready',
      help: '1 while the database answers (what /readyz says), else 0; read at each scrape within 1 s',
      registers: [registry],
      aggregator: 'min',
      async collect() {
        let timer: NodeJS.Timeout | undefined
        const bound = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), PING_BOUND_MS)
        })
        const answered = ping().then(
          () => true,
          () => false,
        )
        this.set((await Promise.race([answered, bound])) ? 1 : 0)
        clearTimeout(timer)
      },
    })
  }
}
