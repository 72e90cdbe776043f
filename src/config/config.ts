import { availableParallelism } from 'node:os'
import ipaddr from 'ipaddr.js'
import { parseDuration } from './duration.js'
import { ConfigError } from './errors.js'
import { type ReplicationConfig, parseReplication } from './replication.js'
import { type TracingConfig, parseTracing } from './tracing.js'

export { ConfigError }

export interface PostgresConfig {
  kind: 'postgres'
  url: string
  /** Connections per service instance. */
  poolMax: number
  /** Longest a statement may run on the server before it is cancelled. */
  statementTimeoutMs: number
  /** Longest a request waits for a connection (new or from the pool). */
  connectTimeoutMs: number
  /** Where `GET /plants` and `GET /plants/{id}` read (a standby); null = `url`. */
  readUrl: string | null
  /** Named prepared statements and startup settings; false keeps no session state (PgBouncer's transaction mode). */
  preparedStatements: boolean
}

/** JWT access tokens of an identity provider (RFC 9068); off unless JWT_ISSUER is set. */
export interface JwtConfig {
  issuer: string
  audience: string
  /** null: the `jwks_uri` of the issuer's OpenID discovery document. */
  jwksUrl: string | null
  algorithms: string[]
  clockToleranceS: number
  /** The `typ` header a token must have; '' = any. */
  typ: string
}

export type DatabaseConfig = { kind: 'sqlite'; path: string } | PostgresConfig

export interface Config {
  port: number
  host: string
  database: DatabaseConfig
  logLevel: string
  /** Requests per minute per token (or per client address); 0 = off. */
  rateLimit: number
  /** When the API sheds load with 503 (docs/PERFORMANCE.md, "Overload"). */
  overload: OverloadLimits
  /** Where instances share their rate-limit counters; null = each instance counts alone. */
  redisUrl: string | null
  /** A request (headers and body) must have arrived within this time. */
  requestTimeoutMs: number
  /** An idle keep-alive connection is closed after this time. */
  keepAliveTimeoutMs: number
  /** Processes serving the port (node:cluster); 1 = this process alone. */
  workers: number
  /** Which proxies' X-Forwarded-For is believed, in Fastify's `trustProxy` forms; false = none. */
  trustProxy: boolean | number | string[]
  /** Origins a browser may call the API from (`*` for any); null = no CORS headers at all. */
  corsOrigins: string[] | null
  /** How long an Idempotency-Key's outcome is kept. */
  idempotencyTtlMs: number
  /** PATCH and DELETE of a plant without If-Match are refused (428). */
  requireIfMatch: boolean
  /** GET /console serves the page for people; false = 404 like any unknown path. */
  console: boolean
  jwt: JwtConfig | null
  /** Where clients reach the API, as the served document's `servers` says; null = the listen address. */
  publicUrl: string | null
  webhooks: WebhookConfig
  /** OpenTelemetry traces over OTLP; null = off, and no SDK is loaded. */
  tracing: TracingConfig | null
  /** Litestream replicating the SQLite file; null = none the service knows of. */
  replication: ReplicationConfig | null
}

export interface WebhookConfig {
  /** An attempt that has no 2xx answer within this time has failed. */
  timeoutMs: number
  /** The wait before each retry; after the last, the event is given up. */
  retryDelaysMs: number[]
  /** CIDRs that targets may be in although they are private, loopback and so on. */
  allowedNetworks: [ipaddr.IPv4 | ipaddr.IPv6, number][]
  /** AES-256-GCM key that seals subscription secrets at rest; null = kept as they are. */
  secretKey: Buffer | null
  /** Delivered and given-up events are deleted after this time. */
  retentionMs: number
  /** After a secret's rotation, the previous secret signs beside the new one this long. */
  secretOverlapMs: number
  /** A subscription with no 2xx since a failure at least this old is disabled; null = never. */
  disableAfterMs: number | null
  /** Whether this process attempts deliveries (SQLite under WORKERS: one worker only). */
  deliver: boolean
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

function integerIn(name: string, raw: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got '${raw}'`)
  }
  return Number(raw)
}

export function parseDatabaseUrl(raw: string, env: NodeJS.ProcessEnv): DatabaseConfig {
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '')
    if (path === '') throw new ConfigError(`DATABASE_URL 'sqlite:' needs a file path, as in sqlite:./data/plantstore.db`)
    if (env.DATABASE_READ_URL) throw new ConfigError('DATABASE_READ_URL is for PostgreSQL only: DATABASE_URL must be postgres:// with it')
    return { kind: 'sqlite', path }
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    return {
      kind: 'postgres',
      url: raw,
      poolMax: integerIn('PG_POOL_MAX', env.PG_POOL_MAX || '10', 1, 1000),
      statementTimeoutMs: integerIn('PG_STATEMENT_TIMEOUT_MS', env.PG_STATEMENT_TIMEOUT_MS || '5000', 1, 3_600_000),
      connectTimeoutMs: integerIn('PG_CONNECT_TIMEOUT_MS', env.PG_CONNECT_TIMEOUT_MS || '5000', 1, 3_600_000),
      readUrl: parseReadUrl(env.DATABASE_READ_URL),
      preparedStatements: booleanIn('PG_PREPARED_STATEMENTS', env.PG_PREPARED_STATEMENTS, true),
    }
  }
  throw new ConfigError(`DATABASE_URL must start with sqlite: or postgres://, got '${raw.split(':')[0]}:…'`)
}

function parseReadUrl(raw: string | undefined): string | null {
  if (!raw) return null
  if (!/^postgres(ql)?:\/\//.test(raw)) throw new ConfigError(`DATABASE_READ_URL must start with postgres://, got '${raw.split(':')[0]}:…'`)
  return raw
}

function booleanIn(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback
  if (raw === 'true') return true
  if (raw === 'false') return false
  throw new ConfigError(`${name} must be true or false, got '${raw}'`)
}

function parseRedisUrl(raw: string | undefined): string | null {
  if (!raw) return null
  if (!/^rediss?:\/\//.test(raw)) throw new ConfigError(`REDIS_URL must start with redis:// or rediss://, got '${raw.split(':')[0]}:…'`)
  return raw
}

/** proxy-addr's names for address ranges, accepted beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

function parseTrustProxy(raw: string | undefined): boolean | number | string[] {
  if (raw === undefined || raw === '' || raw === 'false') return false
  if (raw === 'true') return true
  if (/^[0-9]+$/.test(raw)) return integerIn('TRUST_PROXY', raw, 0, 1000)
  const entries = raw.split(',').map((entry) => entry.trim())
  const bad = entries.find((entry) => !PROXY_RANGE_NAMES.has(entry) && !ipaddr.isValid(entry) && !ipaddr.isValidCIDR(entry))
  if (bad !== undefined) {
    throw new ConfigError(`TRUST_PROXY must be true, false, a hop count, or addresses and CIDRs separated by commas; '${bad}' is none`)
  }
  return entries
}

function parseCorsOrigins(raw: string | undefined): string[] | null {
  if (raw === undefined || raw.trim() === '') return null
  const origins = raw.split(',').map((origin) => origin.trim())
  for (const origin of origins) {
    if (origin === '*') continue
    let parsed: URL | undefined
    try {
      parsed = new URL(origin)
    } catch {
      parsed = undefined
    }
    // An origin is scheme://host[:port] and nothing else; a browser sends exactly that.
    if (parsed === undefined || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigError(`CORS_ORIGINS must be * or origins such as https://app.example.com separated by commas; '${origin}' is not one`)
    }
  }
  return origins
}

/** Asymmetric signature algorithms only: `none` and the HS* family (a shared secret) are refused. */
const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']

function httpUrl(name: string, raw: string): string {
  try {
    if (/^https?:$/.test(new URL(raw).protocol)) return raw
  } catch {
    // Said below.
  }
  throw new ConfigError(`${name} must be an http or https URL, got '${raw}'`)
}

/**
 * An origin (scheme://host[:port]) only: Location and Link headers are paths from the root, so
 * the API cannot live under a path prefix.
 */
function publicUrl(raw: string): string {
  const url = httpUrl('PUBLIC_URL', raw)
  if (new URL(url).origin !== url) {
    throw new ConfigError(`PUBLIC_URL must be an origin such as https://plants.example.com (no path, not even /); got '${raw}'`)
  }
  return url
}

function parseJwt(env: NodeJS.ProcessEnv): JwtConfig | null {
  if (!env.JWT_ISSUER) return null
  if (!env.JWT_AUDIENCE)
    throw new ConfigError('JWT_AUDIENCE is required when JWT_ISSUER is set: the audience your provider puts in tokens for this API')
  const algorithms = (env.JWT_ALGORITHMS || 'RS256,PS256,ES256,EdDSA').split(',').map((alg) => alg.trim())
  const refused = algorithms.find((alg) => !JWT_ALGORITHMS.includes(alg))
  if (refused !== undefined) {
    throw new ConfigError(`JWT_ALGORITHMS may name only ${JWT_ALGORITHMS.join(', ')} (never none or HS*), got '${refused}'`)
  }
  return {
    issuer: httpUrl('JWT_ISSUER', env.JWT_ISSUER),
    audience: env.JWT_AUDIENCE,
    jwksUrl: env.JWT_JWKS_URL ? httpUrl('JWT_JWKS_URL', env.JWT_JWKS_URL) : null,
    algorithms,
    clockToleranceS: integerIn('JWT_CLOCK_TOLERANCE_S', env.JWT_CLOCK_TOLERANCE_S || '30', 0, 3600),
    typ: env.JWT_TYP ?? 'at+jwt',
  }
}

/** `200ms`, or a duration of parseDuration (`5s`, `5m`, `2h`, `1d`). */
function delayIn(name: string, raw: string): number {
  const ms = /^([0-9]{1,9})ms$/.exec(raw)
  const value = ms ? Number(ms[1]) : parseDuration(raw)
  if (value === undefined) throw new ConfigError(`${name} takes durations such as 200ms, 5s, 5m, 2h, 5d; got '${raw}'`)
  return value
}

function parseWebhooks(env: NodeJS.ProcessEnv): WebhookConfig {
  const networks = (env.WEBHOOK_ALLOWED_NETWORKS ?? '')
    .split(',')
    .map((cidr) => cidr.trim())
    .filter((cidr) => cidr !== '')
  const bad = networks.find((cidr) => !ipaddr.isValidCIDR(cidr))
  if (bad !== undefined)
    throw new ConfigError(`WEBHOOK_ALLOWED_NETWORKS takes CIDRs separated by commas, such as 127.0.0.0/8,::1/128; '${bad}' is not one`)
  let secretKey: Buffer | null = null
  if (env.WEBHOOK_SECRET_KEY) {
    secretKey = Buffer.from(env.WEBHOOK_SECRET_KEY, 'base64')
    if (secretKey.length !== 32)
      throw new ConfigError('WEBHOOK_SECRET_KEY must be 32 bytes in base64, such as the output of: openssl rand -base64 32')
  }
  const delays = (env.WEBHOOK_RETRY_DELAYS || '5s,5m,30m,2h,5h,10h,10h')
    .split(',')
    .map((delay) => delayIn('WEBHOOK_RETRY_DELAYS', delay.trim()))
  return {
    // At most 45 s: with the lease's margin, another instance retries an attempt cut off by a crash within 60 s.
    timeoutMs: integerIn('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS || '10000', 100, 45_000),
    retryDelaysMs: delays,
    allowedNetworks: networks.map((cidr) => ipaddr.parseCIDR(cidr)),
    secretKey,
    retentionMs: durationIn('WEBHOOK_RETENTION', env.WEBHOOK_RETENTION || '7d'),
    secretOverlapMs: delayIn('WEBHOOK_SECRET_OVERLAP', env.WEBHOOK_SECRET_OVERLAP || '24h'),
    disableAfterMs: env.WEBHOOK_DISABLE_AFTER === '0' ? null : delayIn('WEBHOOK_DISABLE_AFTER', env.WEBHOOK_DISABLE_AFTER || '5d'),
    deliver: env.PLANTSTORE_WEBHOOK_DELIVERY !== 'off',
  }
}

function durationIn(name: string, raw: string): number {
  const ms = parseDuration(raw)
  if (ms === undefined) throw new ConfigError(`${name} takes a number and a unit: 90s, 45m, 12h or 30d; got '${raw}'`)
  return ms
}

/** When the API sheds load (docs/PERFORMANCE.md, "Overload"); 0 turns a bound off. */
export interface OverloadLimits {
  /** Requests of the API under way at once; one more is answered 503 at once. */
  maxInFlight: number
  /** The event loop's mean delay over the last sample above which requests are answered 503. */
  maxEventLoopDelayMs: number
}

/** Reads and checks every setting once; a bad value is a ConfigError naming its variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = env.LOG_LEVEL || 'info'
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got '${logLevel}'`)
  }
  const database = parseDatabaseUrl(env.DATABASE_URL || 'sqlite:./data/plantstore.db', env)
  return {
    port: integerIn('PORT', env.PORT || '8080', 0, 65535),
    host: env.HOST || '127.0.0.1',
    database,
    logLevel,
    rateLimit: integerIn('RATE_LIMIT', env.RATE_LIMIT || '0', 0, 1_000_000_000),
    overload: {
      maxInFlight: integerIn('SHED_MAX_IN_FLIGHT', env.SHED_MAX_IN_FLIGHT || '256', 0, 1_000_000),
      maxEventLoopDelayMs: integerIn('SHED_EVENT_LOOP_DELAY_MS', env.SHED_EVENT_LOOP_DELAY_MS || '0', 0, 3_600_000),
    },
    redisUrl: parseRedisUrl(env.REDIS_URL),
    requestTimeoutMs: integerIn('REQUEST_TIMEOUT_MS', env.REQUEST_TIMEOUT_MS || '30000', 100, 3_600_000),
    keepAliveTimeoutMs: integerIn('KEEP_ALIVE_TIMEOUT_MS', env.KEEP_ALIVE_TIMEOUT_MS || '72000', 100, 3_600_000),
    workers: env.WORKERS === 'auto' ? availableParallelism() : integerIn('WORKERS', env.WORKERS || '1', 1, 256),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    idempotencyTtlMs: durationIn('IDEMPOTENCY_TTL', env.IDEMPOTENCY_TTL || '24h'),
    requireIfMatch: booleanIn('REQUIRE_IF_MATCH', env.REQUIRE_IF_MATCH, false),
    console: booleanIn('CONSOLE', env.CONSOLE, true),
    jwt: parseJwt(env),
    publicUrl: env.PUBLIC_URL ? publicUrl(env.PUBLIC_URL) : null,
    webhooks: parseWebhooks(env),
    tracing: parseTracing(env),
    replication: parseReplication(env, database),
  }
}

export { loadDotEnv } from './dot-env.js'
