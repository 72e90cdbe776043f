import type { components } from './generated/openapi.js'

/** A plant as the API returns it: `tag` is absent when the plant has none. */
export type Plant = components['schemas']['Plant']
/** A plant of a list asked for with `includeId`: its id is an exact bigint. */
export type ListedPlant = Plant & { id: bigint }
/** A plant with its version, the ETag to send back as `ifMatch`: `etag` is not enumerable, so the object still equals a Plant. */
export type VersionedPlant = Plant & { readonly etag: string }
/** A created plant with its ETag; `etag` is null only for a replayed create whose plant has since been deleted. */
export type CreatedPlant = Plant & { readonly etag: string | null }
/** What updatePlant may change: `tag: null` removes the tag. */
export type PlantPatch = components['schemas']['PlantPatch']
/** A plant to create, and the body of a `newPlant` webhook: `id` is an exact int64. */
export type NewPlant = components['schemas']['NewPlant']

/** A webhook subscription as the API shows it (never its secret). */
export type Subscription = components['schemas']['Subscription']
/** A subscription just made, with its secret: shown only this once. */
export type CreatedSubscription = components['schemas']['CreatedSubscription']
/** One event of a subscription's deliveries log; plantId is an exact bigint. */
export type Delivery = components['schemas']['Delivery']
/** What a subscription may receive. */
export type EventName = Subscription['events'][number]
/** What updateSubscription may change. */
export type SubscriptionPatch = components['schemas']['SubscriptionPatch']

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/** Ids are bigints in the int64 range: a number may already have lost digits, so it is refused. */
export function checkId(id: unknown, what = 'id'): bigint {
  if (typeof id !== 'bigint') throw new TypeError(`${what} must be a bigint (a number cannot hold every int64 exactly)`)
  if (id < INT64_MIN || id > INT64_MAX) throw new RangeError(`${what} must be within the int64 range`)
  return id
}
