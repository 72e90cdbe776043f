import type { IfMatch } from '../store/plants.js'

/** A plant version as a strong entity tag (RFC 9110 8.8.3). */
export const etagOf = (version: number) => `"${version}"`

const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/

/** The tags of an If-Match or If-None-Match value: `*`, or each tag with whether it is weak; null when malformed. */
function parsed(header: string): '*' | { weak: boolean; opaque: string }[] | null {
  if (header.trim() === '*') return '*'
  const tags: { weak: boolean; opaque: string }[] = []
  for (const part of header.split(',')) {
    const match = ENTITY_TAG.exec(part.trim())
    if (match === null) return null
    tags.push({ weak: match[1] !== undefined, opaque: match[2] as string })
  }
  return tags
}

const version = (opaque: string) => (/^[1-9][0-9]{0,15}$/.test(opaque) ? Number(opaque) : null)

/**
 * If-Match as the store takes it: the versions of its strong tags (a weak tag never matches:
 * the comparison is strong), or `*`; null without the header. A malformed value matches nothing.
 */
export function ifMatchOf(header: string | undefined): IfMatch | null {
  if (header === undefined) return null
  const tags = parsed(header)
  if (tags === '*') return '*'
  return (tags ?? []).flatMap((tag) => (tag.weak ? [] : [version(tag.opaque)].filter((value): value is number => value !== null)))
}

/** Whether If-None-Match names the current version (weak comparison: W/"3" names "3"), or is `*`. */
export function ifNoneMatchNames(header: string | undefined, current: number): boolean {
  if (header === undefined) return false
  const tags = parsed(header)
  if (tags === '*') return true
  return (tags ?? []).some((tag) => version(tag.opaque) === current)
}
