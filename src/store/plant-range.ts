import type { PlantQuery } from './store.js'

export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n

/**
 * The inclusive id range of a plant query, or null when it is empty. Inclusive on both ends,
 * so that no int64 (the smallest included) is out of reach of `after`.
 */
export function idRange(query: PlantQuery): { from: bigint; to: bigint } | null {
  if (query.after === INT64_MAX) return null
  return { from: query.after === null ? INT64_MIN : query.after + 1n, to: query.upTo ?? INT64_MAX }
}
