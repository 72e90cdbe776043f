import { parseArgs } from 'node:util'

/** The bench's settings: `--quick` keeps the harness honest in CI, not the figures. */
export const { values: flags } = parseArgs({ options: { quick: { type: 'boolean', default: false } } })
export const quick = flags.quick === true
export const WARMUP_SECONDS = quick ? 0.5 : 3
export const MEASURE_SECONDS = quick ? 1.5 : 10
export const ROUNDS = quick ? 1 : 2
/** Rows of the large scenarios; --quick keeps the harness honest, not the figures. */
export const LARGE = quick ? 100_000 : 1_000_000
export const OWNERS = 1_000
/** The plants of the store that `big` is held to (the "1,000-plant figures"). */
export const SMALL_STORE = 1_000
/**
 * Idle RSS is read once the process has been idle this long. V8 gives back the young
 * generation that start-up grew at the first of its checks, 8 s apart from the first full GC
 * (about 0.5 s after start), that finds the process allocating little: seen at 8 to 12 s in
 * earlier sessions and at 16 or 24 s in later ones. 45 s covers five checks.
 */
export const IDLE_SETTLE_MS = 45_000

export const WORKERS_LABEL = '(WORKERS=2)'
export const WEBHOOK_LABEL = 'create (1 webhook)'
/** The steady rate and duration at which webhook delivery must keep up. */
export const DELIVERY_RATE = 1_000
export const DELIVERY_SECONDS = quick ? 2 : 10
/** Every event must arrive within this time of its plant's acknowledgement. */
export const DELIVERY_TARGET_MS = 2_000
/** The bench's receivers listen on loopback. */
export const WEBHOOK_ENV = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }
