import type { IdempotencyKey, KeyedCreate } from '../store.js'

/** A kept outcome, as a store reads it back. */
interface KeptOutcome {
  fingerprint: string
  created: boolean
  /** The version of the key's plant now, when the caller still has it: a replay answers it. */
  version: number | null
}

/** The answer for a key that has a kept outcome: the same again, or a mismatch. */
export function replay(kept: KeptOutcome, key: IdempotencyKey): KeyedCreate {
  if (kept.fingerprint !== key.fingerprint) return { outcome: 'mismatch' }
  if (!kept.created) return { outcome: 'exists', replayed: true }
  return { outcome: 'created', replayed: true, version: kept.version }
}

/** One string per (owner, key): the owner is length-prefixed, so no two pairs share one. */
export const ownerKey = (owner: string, key: string) => `${owner.length}:${owner}${key}`

/**
 * The (owner, key) pairs whose keyed create this process is committing now: a second request
 * with a pair still in flight is told so at once, without touching the database.
 */
export class KeysInFlight {
  private readonly pairs = new Set<string>()

  async run(owner: string, key: string, work: () => Promise<KeyedCreate>): Promise<KeyedCreate> {
    const pair = ownerKey(owner, key)
    if (this.pairs.has(pair)) return { outcome: 'in-flight' }
    this.pairs.add(pair)
    try {
      return await work()
    } finally {
      this.pairs.delete(pair)
    }
  }
}
