import { type Context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api'
import { type PlantStore, STORE_ROLES } from './store.js'

export type DatabaseSystem = 'sqlite' | 'postgresql'

/** An object's own methods, from its class up, by name. */
function methodNames(target: object): string[] {
  const names = new Set<string>()
  for (
    let proto: unknown = Object.getPrototypeOf(target);
    proto !== null && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof (target as Record<string, unknown>)[name] === 'function') names.add(name)
    }
  }
  return [...names]
}

/** What a view holds: the request's span, as the context its store spans are children of. */
interface View {
  parent: Context
}

/** Methods that call `target`'s own in a span named `{prefix}{method}`, a child of the view's parent. */
function tracedMethods(tracer: Tracer, system: DatabaseSystem, target: object, prefix: string): Record<string, unknown> {
  const methods: Record<string, (this: View, ...args: unknown[]) => unknown> = {}
  for (const name of methodNames(target)) {
    const method = (target as Record<string, (...args: unknown[]) => unknown>)[name]!
    const operation = `${prefix}${name}`
    methods[name] = function (this: View, ...args: unknown[]) {
      return traced(tracer, operation, system, this.parent, () => method.apply(target, args))
    }
  }
  return methods
}

/**
 * Views of the store whose every call is a CLIENT span, a child of a given span, named for its
 * role and method (`plants.create`, `tokens.findByHash`, `ping`): `db.system.name` and
 * `db.operation.name`, the same on both stores. The parent is passed, not looked up in the
 * active context: carrying a context across awaits costs AsyncLocalStorage, whose promise hooks
 * on Node 20 then slow every request, sampled or not. A request the sampler left out, and
 * background work (the delivery worker's polls, pruning, metrics), use the store itself and
 * record nothing. A role's view is made when the request first uses it.
 */
export function storeSpans(store: PlantStore, system: DatabaseSystem): { childrenOf(span: Span): PlantStore } {
  const tracer = trace.getTracer('plantstore-store')
  const view = tracedMethods(tracer, system, store, '')
  for (const role of STORE_ROLES) {
    const roleMethods = tracedMethods(tracer, system, store[role], `${role}.`)
    Object.defineProperty(view, role, {
      get(this: View) {
        const roleView = Object.assign(Object.create(roleMethods) as View, { parent: this.parent })
        Object.defineProperty(this, role, { value: roleView })
        return roleView
      },
    })
  }
  return {
    childrenOf: (span) =>
      Object.assign(Object.create(view) as View, { parent: trace.setSpan(ROOT_CONTEXT, span) }) as unknown as PlantStore,
  }
}

function traced(tracer: Tracer, name: string, system: DatabaseSystem, parent: Context, call: () => unknown): unknown {
  const span = tracer.startSpan(
    name,
    { kind: SpanKind.CLIENT, attributes: { 'db.system.name': system, 'db.operation.name': name } },
    parent,
  )
  let result: unknown
  try {
    result = call()
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

/** The error's kind (a SQLSTATE or a class), never its message: a driver's message may quote the statement's values. */
function failed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code
  span.setAttribute('error.type', typeof code === 'string' ? code : error instanceof Error ? error.constructor.name : 'unknown')
  span.setStatus({ code: SpanStatusCode.ERROR })
  span.end()
}
