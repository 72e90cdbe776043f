import { MalformedAnswerError, PlantStoreConnectionError, PlantStoreError } from './errors.js'
import { bigintOf, objectOf, parseJson, stringOf, toJson } from './json.js'
import {
  type CreatedSubscription,
  type Delivery,
  type EventName,
  type ListedPlant,
  type NewPlant,
  type Plant,
  type PlantPatch,
  type Subscription,
  type SubscriptionPatch,
  type VersionedPlant,
  type CreatedPlant,
  checkId,
} from './types.js'

export interface ClientOptions {
  /** Where the API is, such as https://plants.example.com. */
  baseUrl: string | URL
  /** A bearer token: an opaque `pst_…` token or a JWT access token. */
  token: string
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch
  /**
   * How long a call waits for the answer's status and headers, and then for each next part of its
   * body (a long body that keeps coming is not cut off); 30000 by default.
   */
  timeoutMs?: number
}

export interface ListOptions {
  /** At most this many plants (int32); absent: every accessible plant in one answer. */
  limit?: number
  /** Only plants whose id is greater than this. */
  after?: bigint
  /** Only plants with exactly this tag. */
  tag?: string
  /** Each plant comes with its `id` (`include=id`), so that it can be changed or deleted. */
  includeId?: boolean
}

/** Where the next page starts: pass it back to listPlants as it is. */
export interface NextPage {
  limit: number
  after: bigint
  tag?: string
  includeId?: true
}

export interface PlantPage<P = Plant> {
  plants: P[]
  /** From the answer's Link rel="next"; null on the last page. */
  next: NextPage | null
}

function plantOf(value: unknown): Plant {
  const body = objectOf(value, 'a plant')
  const name = stringOf(body.name, 'a plant name')
  return body.tag === undefined ? { name } : { name, tag: stringOf(body.tag, 'a plant tag') }
}

/** A list item of `include=id`: its id exactly, as a bigint, first. */
function listedPlantOf(value: unknown): ListedPlant {
  const id = bigintOf(objectOf(value, 'a plant').id, 'a plant id')
  if (!inInt64(id)) throw new MalformedAnswerError('a plant id is outside the int64 range')
  return { id, ...plantOf(value) }
}

/**
 * The plant of an answer with its ETag as `etag`: read-only and not enumerable, so the plant
 * still equals, and serialises as, the API's Plant.
 */
function versionedOf(body: unknown, headers: Headers): VersionedPlant {
  if (headers.get('etag') === null) throw new MalformedAnswerError('the answer has no ETag')
  return withEtag(body, headers) as VersionedPlant
}

/** The plant of an answer with its ETag as `etag`, null when the answer has none. */
function withEtag(body: unknown, headers: Headers): CreatedPlant {
  return Object.defineProperty(plantOf(body), 'etag', { value: headers.get('etag'), enumerable: false }) as CreatedPlant
}

/** A deliveries log entry: numbers read exactly (the plant id as a bigint). */
function deliveryOf(value: unknown): Delivery {
  const entry = objectOf(value, 'a delivery')
  const integer = (field: unknown) => (field === null || field === undefined ? null : Number(String(field)))
  return {
    ...entry,
    attempts: integer(entry.attempts),
    lastStatus: integer(entry.lastStatus),
    ...(entry.plantId === undefined ? {} : { plantId: bigintOf(entry.plantId, 'plantId') }),
  } as Delivery
}

/** The next-page link of RFC 8288 `Link: </plants?limit=…&after=…>; rel="next"`, if any. */
function nextPageOf(link: string | null, base: URL): NextPage | null {
  // rel is a space-separated list of relation types: "nextarchive" is not "next".
  const isNext = (part: string) => /;\s*rel="?([^";]*)"?/.exec(part)?.[1]?.split(/\s+/).includes('next') === true
  const target = link?.split(',').find(isNext)
  const uri = target === undefined ? undefined : /<([^>]*)>/.exec(target)?.[1]
  if (uri === undefined) return null
  const query = new URL(uri, base).searchParams
  const limit = query.get('limit')
  const after = query.get('after')
  if (
    limit === null ||
    after === null ||
    !/^[0-9]{1,10}$/.test(limit) ||
    Number(limit) < 1 ||
    Number(limit) > INT32_MAX ||
    !/^-?[0-9]{1,19}$/.test(after) ||
    !inInt64(BigInt(after))
  )
    throw new MalformedAnswerError(`the next-page link is not understood: ${uri}`)
  const tag = query.get('tag')
  const includeId = query.get('include') === 'id'
  return { limit: Number(limit), after: BigInt(after), ...(tag === null ? {} : { tag }), ...(includeId ? { includeId } : {}) }
}

const INT32_MAX = 2 ** 31 - 1
const inInt64 = (value: bigint) => value >= -(2n ** 63n) && value < 2n ** 63n

/** A header value as fetch would send it: visible ASCII and spaces only, else a TypeError naming the option. */
function headerValue(value: string, option: string): string {
  if (typeof value !== 'string' || !/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value))
    throw new TypeError(`${option} must be visible ASCII characters (it is sent as a header)`)
  return value
}

/**
 * The whole body, each part within `timeoutMs` of the one before: else `abort` is called (which
 * cuts the body, so the read throws).
 */
async function readBody(response: Response, timeoutMs: number, abort: () => void): Promise<string> {
  if (response.body === null) return ''
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  for (;;) {
    const timer = setTimeout(abort, timeoutMs)
    try {
      const { done, value } = await reader.read()
      if (done) return text + decoder.decode()
      text += decoder.decode(value, { stream: true })
    } finally {
      clearTimeout(timer)
    }
  }
}

/** A client of one Plant Store API with one token. Ids are bigints, exact over the whole int64 range. */
export class PlantStoreClient {
  private readonly base: URL
  private readonly token: string
  private readonly fetch: typeof fetch
  private readonly timeoutMs: number

  constructor({ baseUrl, token, fetch: fetchFunction = globalThis.fetch, timeoutMs = 30_000 }: ClientOptions) {
    this.base = new URL(baseUrl)
    this.token = headerValue(token, 'token')
    this.fetch = fetchFunction
    this.timeoutMs = timeoutMs
  }

  /**
   * A call, its answer's JSON body read by `decode` (none read without it). No answer, or one cut
   * before its body ends, is a PlantStoreConnectionError; an answer that is not a success a
   * PlantStoreError; a success whose body is not the API's a MalformedAnswerError.
   */
  private async call<T = void>(
    method: string,
    path: string,
    init: { body?: string; headers?: Record<string, string> } = {},
    decode?: (body: unknown, headers: Headers) => T,
  ): Promise<T> {
    const url = new URL(path, this.base)
    const abort = new AbortController()
    let timedOut = false
    const stop = () => {
      timedOut = true
      abort.abort()
    }
    const timer = setTimeout(stop, this.timeoutMs)
    const repeatable = () => method === 'GET' || method === 'DELETE' || init.headers?.['idempotency-key'] !== undefined
    let response: Response
    try {
      response = await this.fetch(url, {
        method,
        headers: { authorization: `Bearer ${this.token}`, accept: 'application/json', ...init.headers },
        signal: abort.signal,
        // A redirect is a login page or a moved service, not this API's answer: never followed.
        redirect: 'manual',
        ...(init.body === undefined ? {} : { body: init.body }),
      })
    } catch (error) {
      throw PlantStoreConnectionError.of(error, method, url, repeatable(), timedOut, this.timeoutMs)
    } finally {
      clearTimeout(timer)
    }
    if (response.ok && decode === undefined) {
      await response.body?.cancel()
      // The API answers a DELETE 204: anything else (a proxy's 200 page, say) did not delete.
      if (method === 'DELETE' && response.status !== 204) {
        const why = `${method} ${url.pathname}: the answer is not the API's: ${response.status} instead of 204`
        throw new MalformedAnswerError(why, response.status, response.headers.get('x-request-id'))
      }
      return undefined as T
    }
    let text: string
    try {
      text = await readBody(response, this.timeoutMs, stop)
    } catch (error) {
      throw PlantStoreConnectionError.of(error, method, url, repeatable(), timedOut, this.timeoutMs)
    }
    if (!response.ok) throw PlantStoreError.fromBody(response, text)
    if (decode === undefined) return undefined as T
    try {
      return decode(parseJson(text), response.headers)
    } catch (error) {
      const why = `${method} ${url.pathname}: the answer is not the API's: ${(error as Error).message}`
      throw new MalformedAnswerError(why, response.status, response.headers.get('x-request-id'), { cause: error })
    }
  }

  /**
   * Creates a plant, with its `etag`. With an idempotencyKey, a retry of the same call has no
   * second effect and answers the plant's current `etag` (null when it has since been deleted).
   */
  async createPlant(plant: NewPlant, { idempotencyKey }: { idempotencyKey?: string } = {}): Promise<CreatedPlant> {
    const body = toJson({ id: checkId(plant.id), name: plant.name, ...(plant.tag === undefined ? {} : { tag: plant.tag }) })
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (idempotencyKey !== undefined) headers['idempotency-key'] = headerValue(idempotencyKey, 'idempotencyKey')
    return this.call('POST', '/plants', { body, headers }, withEtag)
  }

  /** The plant, with its version as `etag`. */
  async getPlant(id: bigint): Promise<VersionedPlant> {
    return this.call('GET', `/plants/${checkId(id)}`, {}, versionedOf)
  }

  /**
   * Changes name and tag (`tag: null` removes it) as a JSON merge patch. With `ifMatch` (an
   * `etag` read before), only while the plant is still that version: else a PlantStoreError 412.
   */
  async updatePlant(id: bigint, patch: PlantPatch, { ifMatch }: { ifMatch?: string } = {}): Promise<VersionedPlant> {
    const headers: Record<string, string> = { 'content-type': 'application/merge-patch+json' }
    if (ifMatch !== undefined) headers['if-match'] = headerValue(ifMatch, 'ifMatch')
    return this.call('PATCH', `/plants/${checkId(id)}`, { body: toJson(patch), headers }, versionedOf)
  }

  /** Deletes the plant; with `ifMatch`, only while it is still that version (else a PlantStoreError 412). */
  async deletePlant(id: bigint, { ifMatch }: { ifMatch?: string } = {}): Promise<void> {
    await this.call(
      'DELETE',
      `/plants/${checkId(id)}`,
      ifMatch === undefined ? {} : { headers: { 'if-match': headerValue(ifMatch, 'ifMatch') } },
    )
  }

  /** One page of the plants the token may see, in ascending id order; with `includeId`, each with its id. */
  listPlants(options: ListOptions & { includeId: true }): Promise<PlantPage<ListedPlant>>
  listPlants(options?: ListOptions & { includeId?: false }): Promise<PlantPage>
  listPlants(options?: ListOptions): Promise<PlantPage<Plant | ListedPlant>>
  async listPlants({ limit, after, tag, includeId = false }: ListOptions = {}): Promise<PlantPage<Plant | ListedPlant>> {
    const query = new URLSearchParams()
    if (limit !== undefined) query.set('limit', String(limit))
    if (after !== undefined) query.set('after', String(checkId(after, 'after')))
    if (tag !== undefined) query.set('tag', tag)
    if (includeId) query.set('include', 'id')
    return this.call('GET', `/plants${query.size > 0 ? `?${query}` : ''}`, {}, (body, headers) => {
      if (!Array.isArray(body)) throw new MalformedAnswerError('the list is not a JSON array')
      return { plants: body.map(includeId ? listedPlantOf : plantOf), next: nextPageOf(headers.get('link'), this.base) }
    })
  }

  /** Every plant the token may see, page by page, following the Link headers; with `includeId`, each with its id. */
  listAll(options: { tag?: string; pageSize?: number; includeId: true }): AsyncGenerator<ListedPlant, void, undefined>
  listAll(options?: { tag?: string; pageSize?: number; includeId?: false }): AsyncGenerator<Plant, void, undefined>
  async *listAll({
    tag,
    pageSize = 1000,
    includeId = false,
  }: { tag?: string; pageSize?: number; includeId?: boolean } = {}): AsyncGenerator<Plant | ListedPlant, void, undefined> {
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > INT32_MAX)
      throw new RangeError(`pageSize must be an integer from 1 to ${INT32_MAX}`)
    let page = await this.listPlants({ limit: pageSize, ...(tag === undefined ? {} : { tag }), includeId })
    let after: bigint | undefined
    for (;;) {
      yield* page.plants
      if (page.next === null) return
      // Ids ascend: a next page that does not start further on would repeat forever.
      if (after !== undefined && page.next.after <= after)
        throw new MalformedAnswerError(`the next-page link does not advance past after=${after}`)
      after = page.next.after
      page = await this.listPlants(page.next)
    }
  }

  /** Subscribes `url` to events (newPlant by default). Keep the answer's secret: it is shown only here. */
  async createSubscription(url: string, { events }: { events?: EventName[] } = {}): Promise<CreatedSubscription> {
    const body = JSON.stringify({ url, ...(events === undefined ? {} : { events }) })
    return this.call(
      'POST',
      '/webhooks',
      { body, headers: { 'content-type': 'application/json' } },
      (answer) => answer as CreatedSubscription,
    )
  }

  /** The token's subscriptions (every one for plants:admin), oldest first. */
  async listSubscriptions(): Promise<Subscription[]> {
    return this.call('GET', '/webhooks', {}, (body) => body as Subscription[])
  }

  async getSubscription(id: string): Promise<Subscription> {
    return this.call('GET', `/webhooks/${encodeURIComponent(id)}`, {}, (body) => body as Subscription)
  }

  /** Changes url, events or enabled (true turns a disabled subscription back on). */
  async updateSubscription(id: string, patch: SubscriptionPatch): Promise<Subscription> {
    const headers = { 'content-type': 'application/merge-patch+json' }
    return this.call(
      'PATCH',
      `/webhooks/${encodeURIComponent(id)}`,
      { body: JSON.stringify(patch), headers },
      (body) => body as Subscription,
    )
  }

  async deleteSubscription(id: string): Promise<void> {
    await this.call('DELETE', `/webhooks/${encodeURIComponent(id)}`)
  }

  /** A new secret, shown only here; the previous one signs beside it until previousSecretExpiresAt. */
  async rotateSecret(id: string): Promise<{ secret: string; previousSecretExpiresAt: string }> {
    return this.call(
      'POST',
      `/webhooks/${encodeURIComponent(id)}/rotate-secret`,
      {},
      (body) => body as { secret: string; previousSecretExpiresAt: string },
    )
  }

  /** The subscription's events, newest first; pass `next` back to read the page after. */
  async listDeliveries(
    id: string,
    { limit, next }: { limit?: number; next?: string } = {},
  ): Promise<{ deliveries: Delivery[]; next: string | null }> {
    const path = next ?? `/webhooks/${encodeURIComponent(id)}/deliveries${limit === undefined ? '' : `?limit=${limit}`}`
    return this.call('GET', path, {}, (body, headers) => {
      const link = headers.get('link')
      const following = link === null ? null : (/<([^>]+)>;\s*rel="?next"?/.exec(link)?.[1] ?? null)
      if (!Array.isArray(body)) throw new MalformedAnswerError('the deliveries log is not a JSON array')
      return { deliveries: body.map(deliveryOf), next: following }
    })
  }

  /** Sends a delivered or failed event again, with its webhook-id and body. */
  async redeliver(id: string, webhookId: string): Promise<void> {
    await this.call('POST', `/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(webhookId)}/redeliver`)
  }

  /** Sends every failed event written at or after `since` again; answers how many. */
  async recover(id: string, since: Date): Promise<number> {
    const init = { body: JSON.stringify({ since: since.toISOString() }), headers: { 'content-type': 'application/json' } }
    return this.call('POST', `/webhooks/${encodeURIComponent(id)}/recover`, init, (body) =>
      Number(String(objectOf(body, 'the answer').requeued)),
    )
  }

  /** Sends a ping event (also to a disabled subscription); answers its webhook-id. */
  async ping(id: string): Promise<string> {
    return this.call('POST', `/webhooks/${encodeURIComponent(id)}/ping`, {}, (body) =>
      stringOf(objectOf(body, 'the answer').id, 'the ping id'),
    )
  }
}
