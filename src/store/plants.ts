import type { Plant } from '../api/schemas.js'

export type { Plant }

export interface NewPlant {
  id: bigint
  owner: string
  name: string
  tag: string | null
  /** The W3C traceparent of the request (tracing on), kept with the plant's events. */
  traceParent?: string | null
}

/** Which plants a caller sees: one owner's, or every owner's (`owner: null`, for admins). */
export interface PlantQuery {
  owner: string | null
  tag: string | null
  /** Only plants with an id greater than this. */
  after: bigint | null
  /** Only plants with an id up to and including this. */
  upTo: bigint | null
  /** Each JSON object starts with the plant's `id` (`GET /plants?include=id`). */
  withId?: boolean
}

/** Plants in ascending id order, already in the JSON form of the API. */
export interface PlantPage {
  /** The plants as JSON objects separated by commas, without brackets: '' when there are none. */
  json: string
  count: number
  /** The id of the last plant, null when there are none: where the next page starts. */
  lastId: bigint | null
}

export const EMPTY_PAGE: PlantPage = { json: '', count: 0, lastId: null }

/** An Idempotency-Key of the plant's owner, with what identifies the request made with it. */
export interface IdempotencyKey {
  key: string
  /** A hash of the validated request: the same key with another request is a mismatch. */
  fingerprint: string
  /** Outcomes kept from before this time have expired: the key is new again. */
  keptSince: Date
}

/**
 * The outcome of a create made with an Idempotency-Key: created (200) or the id existed (400),
 * now or `replayed` from the first request with the key; or the key was used for another
 * request; or a request with the key is still being committed. A created plant's `version` is
 * its current one (a replay's plant may have changed since), null when it is gone.
 */
export type KeyedCreate =
  | { outcome: 'created'; replayed: boolean; version: number | null }
  | { outcome: 'exists'; replayed: boolean }
  | { outcome: 'mismatch' }
  | { outcome: 'in-flight' }

/**
 * A plant as kept, with its version (the ETag): a new one at its creation and at each change,
 * drawn from one counter for the whole store, so no two states of one id ever share one, even
 * across a delete and a re-create.
 */
export interface VersionedPlant {
  plant: Plant
  version: number
}

/** What a PATCH may change: `tag: null` removes the tag; an absent member stays as it is. */
export interface PlantChange {
  name?: string
  tag?: string | null
}

/** The versions an If-Match or If-None-Match names, or `*` (any version). */
export type Versions = readonly number[] | '*'

/** Whether `versions` names `version`. */
export const names = (versions: Versions, version: number) => versions === '*' || versions.includes(version)

/**
 * The conditions of a change or delete (RFC 9110 section 13): If-Match's versions, one of
 * which must be current, and If-None-Match's, none of which may be; each when sent.
 */
export interface Preconditions {
  readonly match?: Versions
  readonly noneMatch?: Versions
}

/** Whether the conditions hold for a plant at `version`; no condition always holds. */
export const matches = (conditions: Preconditions | null, version: number) =>
  conditions === null ||
  ((conditions.match === undefined || names(conditions.match, version)) &&
    (conditions.noneMatch === undefined || !names(conditions.noneMatch, version)))

/** What a change came to: the plant after it (same version when it changed nothing), or why not. */
export type PlantUpdate =
  { outcome: 'updated' | 'unchanged'; plant: Plant; version: number } | { outcome: 'not-found' } | { outcome: 'precondition-failed' }

export type ConditionalDelete = 'deleted' | 'not-found' | 'precondition-failed'

/**
 * The plants, with the outcomes kept for Idempotency-Keys. A create or delete that answers
 * `true` also writes, in its transaction, one event per enabled subscription that receives it
 * and covers the plant's owner.
 */
export interface PlantRecords {
  /** The new plant's version; null when a plant with this id already exists, whoever owns it. */
  create(plant: NewPlant): Promise<number | null>
  /**
   * A create under an Idempotency-Key of the owner: the outcome is kept with the plant, in the
   * same transaction, and a later request with the key and the same fingerprint gets it again.
   */
  createWithKey(plant: NewPlant, key: IdempotencyKey): Promise<KeyedCreate>
  /**
   * Plants matching the query in ascending id order, at most `limit` of them, as JSON text:
   * a list is sent as it comes from the store, with no object made per plant.
   */
  list(query: PlantQuery, limit: number): Promise<PlantPage>
  /** The id of the `n`-th plant (1-based) that `list` would return, or null when there are fewer. */
  nthId(query: PlantQuery, n: number): Promise<bigint | null>
  get(id: bigint, owner: string | null): Promise<VersionedPlant | null>
  /** false when no plant with this id is visible to `owner`. */
  delete(id: bigint, owner: string | null, traceParent?: string | null): Promise<boolean>
  /**
   * Deletes the plant only while `conditions` hold for its version, compared and deleted in one
   * transaction (the row locked on PostgreSQL): of two writers with one tag, one wins.
   */
  deleteIfMatch(id: bigint, owner: string | null, conditions: Preconditions, traceParent?: string | null): Promise<ConditionalDelete>
  /**
   * Applies `change` (with `conditions`, only while they hold for the version), a new
   * version and a plantUpdated event in the same transaction; a change to what is already
   * there is `unchanged`: no new version, no event.
   */
  update(
    id: bigint,
    owner: string | null,
    change: PlantChange,
    conditions: Preconditions | null,
    traceParent?: string | null,
  ): Promise<PlantUpdate>
  /** Deletes at most `limit` kept outcomes older than `before`; answers how many went. */
  pruneIdempotencyKeys(before: Date, limit: number): Promise<number>
}
