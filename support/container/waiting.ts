export { freePort } from '../ports.js'

/** Retries `attempt` every 250 ms until it gives a value (not null, not a throw), within `timeoutMs`. */
export async function waitUntil<T>(what: string, attempt: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await attempt().catch(() => null)
    if (value !== null) return value
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}
