import { Gauge, type Registry } from 'prom-client'
import type { HasMetrics } from '../observability/metrics.js'

const POLL_EVERY_MS = 1_000
const POLL_TIMEOUT_MS = 900
/**
 * How long a replica may have no position after the first read of a Litestream run: its first
 * WAL segment takes a sync (every second, deploy/litestream.yml) after the write that needs it.
 */
const NO_POSITION_GRACE_MS = 10_000
/** Litestream's metrics are a few KiB: a larger answer is not Litestream's, and is not read on. */
const MAX_BODY_BYTES = 1024 * 1024

/** The body as text, or an error once it passes `MAX_BODY_BYTES`. */
async function boundedText(response: Response): Promise<string> {
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength
    if (size > MAX_BODY_BYTES) {
      await reader.cancel()
      throw new Error('answered a body larger than 1 MiB')
    }
    chunks.push(read.value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** What Litestream's /metrics says of one database: the shadow WAL's position and its replicas'. */
export interface LitestreamState {
  /** Litestream's own start: its gauges begin again when it changes. */
  startedAt: string
  shadowIndex: number
  shadowSize: number
  /** litestream_total_wal_bytes: grows with each WAL copy Litestream takes of the database's writes. */
  walBytes: number
  /** Per replica name: the last WAL index and offset it wrote; missing until its first write since Litestream started. */
  replicas: Map<string, { index: number; offset: number }>
  /** Every replica Litestream names in its metrics for this database, with a position or not. */
  replicaNames: Set<string>
}

/** The samples of one Prometheus text, as name → [labels, value]. */
function samples(text: string): Map<string, [Record<string, string>, number][]> {
  const found = new Map<string, [Record<string, string>, number][]>()
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (match === null) continue
    const labels: Record<string, string> = {}
    for (const [, name, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[name as string] = (value as string).replace(/\\(.)/g, (_all, char: string) => (char === 'n' ? '\n' : char))
    }
    const list = found.get(match[1] as string) ?? []
    list.push([labels, Number(match[3])])
    found.set(match[1] as string, list)
  }
  return found
}

/** The state of `databasePath` in Litestream's metrics text; throws when Litestream does not replicate it. */
export function litestreamStateOf(text: string, databasePath: string): LitestreamState {
  const all = samples(text)
  const of = (name: string) => (all.get(name) ?? []).filter(([labels]) => labels.db === databasePath)
  const one = (name: string) => of(name)[0]?.[1]
  const shadowIndex = one('litestream_shadow_wal_index')
  const shadowSize = one('litestream_shadow_wal_size')
  if (shadowIndex === undefined || shadowSize === undefined) throw new Error(`Litestream does not replicate ${databasePath}`)
  const replicas = new Map<string, { index: number; offset: number }>()
  const offsets = new Map(of('litestream_replica_wal_offset').map(([labels, value]) => [labels.name ?? '', value]))
  for (const [labels, index] of of('litestream_replica_wal_index')) {
    const offset = offsets.get(labels.name ?? '')
    if (offset !== undefined) replicas.set(labels.name ?? '', { index, offset })
  }
  // litestream_replica_validation_total names each replica from Litestream's start, written or not.
  const replicaNames = new Set<string>()
  for (const [name, list] of all) {
    if (!name.startsWith('litestream_replica_')) continue
    for (const [labels] of list) if (labels.db === databasePath && labels.name !== undefined) replicaNames.add(labels.name)
  }
  return {
    startedAt: String(all.get('process_start_time_seconds')?.[0]?.[1]),
    shadowIndex,
    shadowSize,
    walBytes: one('litestream_total_wal_bytes') ?? 0,
    replicas,
    replicaNames,
  }
}

/** Why Litestream could not be read, fit for the log. */
const reasonOf = (error: unknown) => {
  const cause = (error as { cause?: unknown }).cause
  return cause instanceof Error ? cause.message : (error as Error).message
}

/**
 * `plantstore_replication_lag_seconds`, read from Litestream's metrics every second: 0 when the
 * replica's position (WAL index, offset) changed at or after the last change of Litestream's
 * shadow WAL (its index, or the WAL bytes it copied), that is when the replica took writes
 * since the database last wrote;
 * else the time since the oldest database change it has not followed (from the read before that
 * change was seen, so up to a second early). While Litestream cannot be read, it grows from the
 * first failed read, as nothing is known to be replicated.
 *
 * Litestream 0.3.13 serves a replica's position only once the replica has taken a WAL segment
 * since Litestream started. On a new generation that is within a second; continuing one on a
 * quiet database, not before the database writes, so a healthy replica and one that refuses
 * every write (a wrong credential) serve the same series. At the first read of each Litestream
 * run that finds a replica without a position, `touch` writes one page that changes nothing
 * (SQLite's user_version rewritten): a replica that can be written takes it within a sync. A
 * replica still without a position NO_POSITION_GRACE_MS after that first read is behind since
 * that read.
 */
export class ReplicationLag implements HasMetrics {
  private timer: NodeJS.Timeout | null = null
  private previous: LitestreamState | null = null
  private previousAt = 0
  /** Per replica: since when it has lacked a write, or null while it holds them all. */
  private readonly behindSince = new Map<string, number | null>()
  private unreadableSince: number | null = null
  /** When this Litestream run (its process_start_time_seconds) was first read. */
  private runFirstReadAt = 0
  /** Whether this run's touch was written (or is being written). */
  private touched: 'no' | 'writing' | 'yes' = 'no'
  /** Whether the last warning said Litestream cannot be read (and none since said it can). */
  private warnedUnreadable = false
  /** The reason of the last failed read, or null after a read that worked. */
  private lastReason: string | null = null

  constructor(
    private readonly metricsUrl: string,
    private readonly databasePath: string,
    /** Where a change of readability is logged: a loss at warn, a recovery at info. */
    private readonly log: (details: Record<string, unknown>, message: string, level: 'warn' | 'info' | 'debug') => void,
    private readonly now: () => number = Date.now,
    /** A write that changes nothing, for Litestream to copy (SQLite's); null: none is made. */
    private readonly touch: (() => Promise<void>) | null = null,
  ) {}

  start(): void {
    this.unreadableSince = this.now()
    const poll = () => {
      void this.poll().finally(() => {
        if (this.timer !== null) this.timer = setTimeout(poll, POLL_EVERY_MS).unref()
      })
    }
    this.timer = setTimeout(poll, 0).unref()
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  /** The lag now, in seconds. */
  seconds(): number {
    const at = this.now()
    let oldest = this.unreadableSince ?? at
    for (const since of this.behindSince.values()) if (since !== null) oldest = Math.min(oldest, since)
    return Math.max(0, at - oldest) / 1000
  }

  async poll(): Promise<void> {
    const at = this.now()
    let state: LitestreamState
    try {
      const response = await fetch(this.metricsUrl, { signal: AbortSignal.timeout(POLL_TIMEOUT_MS), redirect: 'error' })
      if (!response.ok) throw new Error(`answered ${response.status}`)
      state = litestreamStateOf(response.body === null ? '' : await boundedText(response), this.databasePath)
    } catch (error) {
      this.unreadableSince ??= at
      this.report(reasonOf(error))
      return
    }
    this.unreadableSince = null
    this.report(null)
    this.observe(state, at)
  }

  private observe(state: LitestreamState, at: number): void {
    const previous = this.previous?.startedAt === state.startedAt ? this.previous : null
    // Litestream (re)started: nothing is known to be missing yet.
    if (previous === null) {
      this.behindSince.clear()
      this.runFirstReadAt = at
      this.touched = 'no'
    }
    // Positions are only compared with their own earlier values. litestream_shadow_wal_size counts
    // the shadow WAL files Litestream still keeps (it drops when old ones are removed), so the
    // database's writes are read from litestream_total_wal_bytes, the bytes it copied.
    const databaseMoved = previous !== null && (previous.shadowIndex !== state.shadowIndex || previous.walBytes !== state.walBytes)
    for (const [name, position] of state.replicas) {
      const before = previous?.replicas.get(name)
      const replicaMoved = before === undefined || before.index !== position.index || before.offset !== position.offset
      // A replica that moved took what the database had then; one that did not lacks every change
      // since the one it last followed, which happened at the earliest right after the last read.
      if (replicaMoved && previous !== null) this.behindSince.set(name, null)
      else if (databaseMoved) this.behindSince.set(name, this.behindSince.get(name) ?? this.previousAt)
    }
    // Replicas with no position since Litestream started ('' when Litestream names none): behind
    // since this run's first read once the grace has passed, and a touch to tell them apart first.
    const unplaced = [...state.replicaNames].filter((name) => !state.replicas.has(name))
    if (state.replicaNames.size === 0 && state.replicas.size === 0) unplaced.push('')
    else this.behindSince.delete('')
    for (const name of unplaced) {
      if (at - this.runFirstReadAt >= NO_POSITION_GRACE_MS) this.behindSince.set(name, this.behindSince.get(name) ?? this.runFirstReadAt)
    }
    if (unplaced.length > 0) this.touchOnce()
    this.previous = state
    this.previousAt = at
  }

  /** Writes this run's touch, once it succeeds (a failed one is tried again at the next read). */
  private touchOnce(): void {
    if (this.touch === null || this.touched !== 'no') return
    this.touched = 'writing'
    const run = this.runFirstReadAt
    this.touch().then(
      () => {
        if (this.runFirstReadAt === run) this.touched = 'yes'
      },
      () => {
        if (this.runFirstReadAt === run) this.touched = 'no'
      },
    )
  }

  /**
   * Warns once when Litestream becomes unreadable, with the first reason (a timeout, then a
   * refusal, then a timeout again are one outage, not three), and says once (at info: a
   * recovery) when it can be read again: never per read or per reason.
   */
  private report(problem: string | null): void {
    // A new reason within one outage (a timeout, then a refused connection) is only for debugging.
    if (problem !== null && this.warnedUnreadable && problem !== this.lastReason) {
      this.log({ url: this.metricsUrl, reason: problem }, "Litestream's metrics still cannot be read", 'debug')
    }
    this.lastReason = problem
    if ((problem !== null) === this.warnedUnreadable) return
    this.warnedUnreadable = problem !== null
    if (problem !== null) {
      this.log(
        { url: this.metricsUrl, reason: problem },
        "Litestream's metrics cannot be read: plantstore_replication_lag_seconds grows until they can",
        'warn',
      )
    } else this.log({ url: this.metricsUrl }, "Litestream's metrics can be read again", 'info')
  }

  registerMetrics(registry: Registry): void {
    const seconds = () => this.seconds()
    new Gauge({
      name: 'plantstore_replication_lag_seconds',
      help: "Seconds the oldest write not yet in Litestream's replica has waited (0: the replica holds every write); read every second",
      registers: [registry],
      aggregator: 'max',
      collect() {
        this.set(seconds())
      },
    })
  }
}
