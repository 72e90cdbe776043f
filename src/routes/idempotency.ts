import { hash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { pruneEveryMinute } from '../lifecycle/pruning.js'
import { HttpError, badRequest } from '../http/errors.js'
import type { NewPlant, PlantStore } from '../store/store.js'

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

export const keyInFlight = () =>
  new HttpError(409, 'a request with this Idempotency-Key is still in flight; retry it shortly', { 'retry-after': '1' })
export const keyMismatch = () =>
  new HttpError(422, 'this Idempotency-Key was already used for a different request; use a new key for a new request')

/** Deletes outcomes older than `ttlMs` every minute, in batches, while the app runs. */
export function pruneExpiredKeys(app: FastifyInstance, store: PlantStore, ttlMs: number): void {
  pruneEveryMinute(app, 'expired idempotency keys', ttlMs, (before, limit) => store.pruneIdempotencyKeys(before, limit))
}
