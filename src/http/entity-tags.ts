import type { Versions } from '../store/plants.js'
import { malformedCondition } from './errors.js'

/** A plant version as a strong entity tag (RFC 9110 8.8.3). */
export const etagOf = (version: number) => `"${version}"`

const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/

/**
 * The tags of an If-Match or If-None-Match value: `*`, or each tag with whether it is weak.
 * A malformed value (most often an unquoted version: 3) is a 400: taken as matching nothing,
 * it would answer 412 to every retry of a client that cannot see why.
 */
function parsed(name: string, header: string): '*' | { weak: boolean; opaque: string }[] {
  if (header.trim() === '*') return '*'
  const tags: { weak: boolean; opaque: string }[] = []
  // Empty elements (`"3", ,`) are ignored (RFC 9110 5.6.1.2); a list of none is still malformed.
  for (const part of header.split(',').filter((element) => element.trim() !== '')) {
    const match = ENTITY_TAG.exec(part.trim())
    if (match === null) throw malformedCondition(name)
    tags.push({ weak: match[1] !== undefined, opaque: match[2] as string })
  }
  if (tags.length === 0) throw malformedCondition(name)
  return tags
}

/** The version a tag's opaque part names: none when it is not one of ours. */
const versionOf = (opaque: string): number[] => (/^[1-9][0-9]{0,15}$/.test(opaque) ? [Number(opaque)] : [])

/**
 * If-Match as the store takes it: the versions of its strong tags (a weak tag never matches:
 * the comparison is strong), or `*`; null without the header.
 */
export function ifMatchOf(header: string | undefined): Versions | null {
  if (header === undefined) return null
  const tags = parsed('If-Match', header)
  if (tags === '*') return '*'
  return tags.flatMap((tag) => (tag.weak ? [] : versionOf(tag.opaque)))
}

/**
 * If-None-Match as GET, PATCH and DELETE compare it: the versions it names (weak comparison: W/"3" names "3"),
 * or `*`; null without the header.
 */
export function ifNoneMatchOf(header: string | undefined): Versions | null {
  if (header === undefined) return null
  const tags = parsed('If-None-Match', header)
  if (tags === '*') return '*'
  return tags.flatMap((tag) => versionOf(tag.opaque))
}
