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

/**
 * Serves each of `values` of the counter's `label` at 0 from the start, as Prometheus' client
 * libraries advise: a series that first appears at 1 has no increase, and an alert on the
 * counter's increase would miss the first event.
 */
export function fromZero<T extends string>(counter: Counter<T>, label: T, values: readonly string[]): Counter<T> {
  for (const value of values) counter.inc({ [label]: value } as Partial<Record<T, string>>, 0)
  return counter
}
