import { type Span, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api'
import type { PlantStore } from './store.js'

export type DatabaseSystem = 'sqlite' | 'postgresql'

/** The store's own methods, from its class up, by name. */
function methodNames(store: object): string[] {
  const names = new Set<string>()
  for (
    let proto: unknown = Object.getPrototypeOf(store);
    proto !== null && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof (store as Record<string, unknown>)[name] === 'function') names.add(name)
    }
  }
  return [...names]
}

/**
 * The store with a CLIENT span around each call made inside a sampled span: `db.system.name`
 * and `db.operation.name` (the store operation, such as createPlant), the same on both stores.
 * A call outside a trace (the delivery worker's polls, pruning, metrics) records nothing, so
 * background work makes no traces of its own. Used only while tracing is on.
 */
export function tracedStore(store: PlantStore, system: DatabaseSystem): PlantStore {
  const tracer = trace.getTracer('plantstore-store')
  const traced: Record<string, unknown> = {}
  for (const name of methodNames(store)) {
    const method = (store as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!.bind(store)
    traced[name] = (...args: unknown[]) => {
      const parent = context.active()
      if (trace.getSpan(parent)?.isRecording() !== true) return method(...args)
      const span = tracer.startSpan(
        name,
        { kind: SpanKind.CLIENT, attributes: { 'db.system.name': system, 'db.operation.name': name } },
        parent,
      )
      let result: unknown
      try {
        result = context.with(trace.setSpan(parent, span), () => method(...args))
      } catch (error) {
        failed(span, error)
        throw error
      }
      if (!(result instanceof Promise)) {
        span.end()
        return result
      }
      return result.then(
        (value: unknown) => {
          span.end()
          return value
        },
        (error: unknown) => {
          failed(span, error)
          throw error
        },
      )
    }
  }
  return traced as unknown as PlantStore
}

/** The error's kind (a SQLSTATE or a class), never its message: a driver's message may quote the statement's values. */
function failed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code
  span.setAttribute('error.type', typeof code === 'string' ? code : error instanceof Error ? error.constructor.name : 'unknown')
  span.setStatus({ code: SpanStatusCode.ERROR })
  span.end()
}
