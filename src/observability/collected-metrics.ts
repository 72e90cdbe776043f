import { Counter, Gauge, type Registry } from 'prom-client'

/** A gauge whose value is read from `read` when the registry is scraped. */
export function gaugeReading(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read())
    },
  })
}

/** A counter whose total is read from `read` when the registry is scraped. */
export function counterReading(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset()
      this.inc(read())
    },
  })
}
