import { hash } from 'node:crypto'
import { badRequest } from '../http/errors.js'
import type { NewPlant } from '../store/plants.js'

const BARE_KEY = /^[\x21-\x7e]{1,255}$/
/** An RFC 8941 string: printable ASCII between quotes, with `"` and `\` escaped by `\`. */
const QUOTED_KEY = /^"((?:[\x20-\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/

/**
 * The Idempotency-Key of a request (draft-ietf-httpapi-idempotency-key-header): 1 to 255
 * printable ASCII characters, bare or as a quoted string; undefined when there is none.
 */
export function idempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined
  if (typeof header === 'string') {
    // A value that opens with a quote is a quoted string, and must be a whole one.
    const quoted = header.startsWith('"') ? QUOTED_KEY.exec(header) : null
    const key = quoted ? (quoted[1] as string).replace(/\\(["\\])/g, '$1') : header
    if ((quoted !== null || !header.startsWith('"')) && BARE_KEY.test(key)) return key
  }
  throw badRequest('the Idempotency-Key header must be one value of 1 to 255 printable ASCII characters, bare or quoted')
}

/** What makes two creates the same request: the validated id, name and tag. */
export function fingerprint(plant: NewPlant): string {
  return hash('sha256', JSON.stringify([String(plant.id), plant.name, plant.tag]), 'hex')
}
