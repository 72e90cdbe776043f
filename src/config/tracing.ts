import { ConfigError } from './errors.js'

export type OtlpProtocol = 'http/protobuf' | 'http/json'

/** Tracing is on: spans go over OTLP/HTTP to the endpoint the exporter reads from OTEL_*. */
export interface TracingConfig {
  protocol: OtlpProtocol
}

const PROTOCOLS: readonly string[] = ['http/protobuf', 'http/json']
const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio']

/**
 * On only when an OTLP endpoint is named and OTEL_SDK_DISABLED is not true. The SDK reads the
 * rest of the standard variables itself; the ones it would silently replace with a default
 * when wrong are checked here, so that a typo stops the start instead of changing what is traced.
 */
export function parseTracing(env: NodeJS.ProcessEnv): TracingConfig | null {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return null
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null
  const protocolVariable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL'
  const protocol = env[protocolVariable]?.trim() || 'http/protobuf'
  if (!PROTOCOLS.includes(protocol)) {
    throw new ConfigError(`${protocolVariable} must be http/protobuf or http/json (OTLP over HTTP), got '${protocol}'`)
  }
  const sampler = env.OTEL_TRACES_SAMPLER?.trim()
  if (sampler && !SAMPLERS.includes(sampler)) {
    throw new ConfigError(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}, got '${sampler}'`)
  }
  const ratio = env.OTEL_TRACES_SAMPLER_ARG?.trim()
  if (ratio && sampler?.endsWith('traceidratio') && !(Number(ratio) >= 0 && Number(ratio) <= 1)) {
    throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got '${ratio}'`)
  }
  return { protocol: protocol as OtlpProtocol }
}
