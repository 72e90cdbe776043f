/** How long a browser's page or context may take to close before its hook fails. */
export const CLOSE_BOUND_MS = 30_000

/**
 * What `work` settles to, or an Error naming `what` once `ms` have passed without it: a close
 * that hangs then fails its own hook at once, saying what hung, instead of holding the whole
 * file until the runner's test timeout (10 minutes in CI).
 */
export async function within<T>(what: string, work: Promise<T>, ms = CLOSE_BOUND_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms)
  })
  try {
    return await Promise.race([work, expired])
  } finally {
    clearTimeout(timer)
  }
}
