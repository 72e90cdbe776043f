/**
 * Text from outside (a webhook receiver's answer, an error about it) made storable in either
 * store: PostgreSQL refuses U+0000 in text, and a lone surrogate is not UTF-8.
 */
export const storableText = (text: string): string => text.replaceAll('\0', '').toWellFormed()

/** The first `count` code points of `text`: a cut never splits a surrogate pair. */
export function firstCodePoints(text: string, count: number): string {
  if (text.length <= count) return text
  return Array.from(text).slice(0, count).join('')
}
