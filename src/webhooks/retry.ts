/** Each delay is moved by up to this share either way, so that retries of many events spread out. */
const JITTER = 0.2

/**
 * The wait before the attempt after attempt number `attempt` (1-based) failed, or null when
 * that was the last one. A receiver's Retry-After may lengthen the wait up to the next delay.
 */
export function retryDelay(attempt: number, delaysMs: readonly number[], retryAfterS: number | null, random = Math.random): number | null {
  const delay = delaysMs[attempt - 1]
  if (delay === undefined) return null
  const jittered = Math.round(delay * (1 - JITTER + 2 * JITTER * random()))
  if (retryAfterS === null) return jittered
  const ceiling = delaysMs[attempt] ?? delay
  return Math.max(jittered, Math.min(retryAfterS * 1000, ceiling))
}
