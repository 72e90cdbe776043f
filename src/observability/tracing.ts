import type { Logger } from 'pino'
import type { TracingConfig } from '../config/tracing.js'

export interface Tracing {
  /** The resource's service.name, which every span is exported under. */
  serviceName: string
  /**
   * Exports every ended span still waiting and stops the exporter; false when that took longer
   * than `deadlineMs` (an export may then still hold a connection open).
   */
  shutdown(deadlineMs: number): Promise<boolean>
}

/** The resource's service.name when neither OTEL_SERVICE_NAME nor OTEL_RESOURCE_ATTRIBUTES names one. */
const SERVICE_NAME = 'plantstore'

/**
 * Registers OpenTelemetry's Node tracer provider, with spans batched to the OTLP/HTTP exporter
 * of the configured protocol. The SDK's modules are loaded here and only here, so a process
 * with tracing off never loads them. The exporter and the sampler read the standard OTEL_*
 * variables themselves (endpoint, headers, timeout, OTEL_TRACES_SAMPLER and its argument).
 */
export async function startTracing(config: TracingConfig, logger: Logger): Promise<Tracing> {
  const [api, { NodeTracerProvider, BatchSpanProcessor }, resources, { OTLPTraceExporter }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
    config.protocol === 'http/json'
      ? import('@opentelemetry/exporter-trace-otlp-http')
      : import('@opentelemetry/exporter-trace-otlp-proto'),
  ])
  // A collector that is down costs a warning per failed export, never a request.
  const exportLog = logger.child({ component: 'opentelemetry' })
  api.diag.setLogger(
    {
      error: (message) => exportLog.warn(message),
      warn: (message) => exportLog.warn(message),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    api.DiagLogLevel.WARN,
  )
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': SERVICE_NAME }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }))
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] })
  // W3C trace context and baggage, and no context manager: every span is given its parent (the
  // request's span, an event's traceparent), so no AsyncLocalStorage is needed, whose promise
  // hooks on Node 20 would slow every request once the first export had switched them on.
  provider.register({ contextManager: null })
  return {
    serviceName: String(resource.attributes['service.name'] ?? SERVICE_NAME),
    async shutdown(deadlineMs) {
      let timer: NodeJS.Timeout | undefined
      const deadline = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), deadlineMs).unref()))
      const flushed = provider.shutdown().then(
        () => true,
        (error: unknown) => {
          exportLog.warn({ err: error }, 'spans could not be exported')
          return true
        },
      )
      const done = await Promise.race([flushed, deadline])
      clearTimeout(timer)
      if (!done) exportLog.warn({ deadlineMs }, 'the collector took no spans before the shutdown deadline; they are dropped')
      return done
    },
  }
}
