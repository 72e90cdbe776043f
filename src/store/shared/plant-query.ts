import { INT64_MAX, INT64_MIN } from '../../api/int64.js'
import type { PlantQuery } from '../plants.js'

/**
 * The inclusive id range of a plant query, or null when it is empty. Inclusive on both ends,
 * so that no int64 (the smallest included) is out of reach of `after`.
 */
export function idRange(query: PlantQuery): { from: bigint; to: bigint } | null {
  if (query.after === INT64_MAX) return null
  return { from: query.after === null ? INT64_MIN : query.after + 1n, to: query.upTo ?? INT64_MAX }
}

/**
 * One prepared variant of a plant query per combination of filters (by owner, by tag) and of
 * the item's form (with or without its id), made once; the returned function picks the variant
 * a query needs.
 */
export function variantsByFilter<T>(make: (byOwner: boolean, byTag: boolean, withId: boolean) => T): (query: PlantQuery) => T {
  const variants = [
    [
      [make(false, false, false), make(false, false, true)],
      [make(false, true, false), make(false, true, true)],
    ],
    [
      [make(true, false, false), make(true, false, true)],
      [make(true, true, false), make(true, true, true)],
    ],
  ] as const
  return (query) => variants[query.owner === null ? 0 : 1][query.tag === null ? 0 : 1][query.withId === true ? 1 : 0]
}

/** The query and limit as one key; every string is length-prefixed, so no two queries share a key. */
export function pageKey(query: PlantQuery, limit: number): string {
  const text = (value: string | null) => (value === null ? '-' : `${value.length}:${value}`)
  const form = query.withId === true ? '|id' : ''
  return `${text(query.owner)}|${text(query.tag)}|${query.after ?? '-'}|${query.upTo ?? '-'}|${limit}${form}`
}
