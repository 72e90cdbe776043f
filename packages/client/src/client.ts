import { PlantStoreError } from './errors.js'
import { MalformedAnswerError, objectOf, parseJson, stringOf, toJson } from './json.js'
import {
  type CreatedSubscription,
  type EventName,
  type NewPlant,
  type Plant,
  type Subscription,
  type SubscriptionPatch,
  checkId,
} from './types.js'

export interface ClientOptions {
  /** Where the API is, such as https://plants.example.com. */
  baseUrl: string | URL
  /** A bearer token: an opaque `pst_…` token or a JWT access token. */
  token: string
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch
}

export interface ListOptions {
  /** At most this many plants (int32); absent: every accessible plant in one answer. */
  limit?: number
  /** Only plants whose id is greater than this. */
  after?: bigint
  /** Only plants with exactly this tag. */
  tag?: string
}

/** Where the next page starts: pass it back to listPlants as it is. */
export interface NextPage {
  limit: number
  after: bigint
  tag?: string
}

export interface PlantPage {
  plants: Plant[]
  /** From the answer's Link rel="next"; null on the last page. */
  next: NextPage | null
}

function plantOf(value: unknown): Plant {
  const body = objectOf(value, 'a plant')
  const name = stringOf(body.name, 'a plant name')
  return body.tag === undefined ? { name } : { name, tag: stringOf(body.tag, 'a plant tag') }
}

/** The next-page link of RFC 8288 `Link: </plants?limit=…&after=…>; rel="next"`, if any. */
function nextPageOf(link: string | null, base: URL): NextPage | null {
  const target = link?.split(',').find((part) => /;\s*rel="?next"?/.test(part))
  const uri = target === undefined ? undefined : /<([^>]*)>/.exec(target)?.[1]
  if (uri === undefined) return null
  const query = new URL(uri, base).searchParams
  const limit = query.get('limit')
  const after = query.get('after')
  if (limit === null || after === null || !/^-?[0-9]+$/.test(after))
    throw new MalformedAnswerError(`the next-page link is not understood: ${uri}`)
  const tag = query.get('tag')
  return { limit: Number(limit), after: BigInt(after), ...(tag === null ? {} : { tag }) }
}

/** A client of one Plant Store API with one token. Ids are bigints, exact over the whole int64 range. */
export class PlantStoreClient {
  private readonly base: URL
  private readonly token: string
  private readonly fetch: typeof fetch

  constructor({ baseUrl, token, fetch: fetchFunction = globalThis.fetch }: ClientOptions) {
    this.base = new URL(baseUrl)
    this.token = token
    this.fetch = fetchFunction
  }

  private async call(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<Response> {
    const response = await this.fetch(new URL(path, this.base), {
      method,
      headers: { authorization: `Bearer ${this.token}`, accept: 'application/json', ...init.headers },
      ...(init.body === undefined ? {} : { body: init.body }),
    })
    if (!response.ok) throw await PlantStoreError.from(response)
    return response
  }

  /** Creates a plant. With an idempotencyKey, a retry of the same call has no second effect. */
  async createPlant(plant: NewPlant, { idempotencyKey }: { idempotencyKey?: string } = {}): Promise<Plant> {
    const body = toJson({ id: checkId(plant.id), name: plant.name, ...(plant.tag === undefined ? {} : { tag: plant.tag }) })
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey
    const response = await this.call('POST', '/plants', { body, headers })
    return plantOf(parseJson(await response.text()))
  }

  async getPlant(id: bigint): Promise<Plant> {
    const response = await this.call('GET', `/plants/${checkId(id)}`)
    return plantOf(parseJson(await response.text()))
  }

  async deletePlant(id: bigint): Promise<void> {
    const response = await this.call('DELETE', `/plants/${checkId(id)}`)
    await response.body?.cancel()
  }

  /** One page of the plants the token may see, in ascending id order. */
  async listPlants({ limit, after, tag }: ListOptions = {}): Promise<PlantPage> {
    const query = new URLSearchParams()
    if (limit !== undefined) query.set('limit', String(limit))
    if (after !== undefined) query.set('after', String(checkId(after, 'after')))
    if (tag !== undefined) query.set('tag', tag)
    const response = await this.call('GET', `/plants${query.size > 0 ? `?${query}` : ''}`)
    const body = parseJson(await response.text())
    if (!Array.isArray(body)) throw new MalformedAnswerError('the list is not a JSON array')
    return { plants: body.map(plantOf), next: nextPageOf(response.headers.get('link'), this.base) }
  }

  /** Every plant the token may see, page by page, following the Link headers. */
  async *listAll({ tag, pageSize = 1000 }: { tag?: string; pageSize?: number } = {}): AsyncGenerator<Plant, void, undefined> {
    let page = await this.listPlants({ limit: pageSize, ...(tag === undefined ? {} : { tag }) })
    for (;;) {
      yield* page.plants
      if (page.next === null) return
      page = await this.listPlants(page.next)
    }
  }

  /** Subscribes `url` to events (newPlant by default). Keep the answer's secret: it is shown only here. */
  async createSubscription(url: string, { events }: { events?: EventName[] } = {}): Promise<CreatedSubscription> {
    const body = JSON.stringify({ url, ...(events === undefined ? {} : { events }) })
    const response = await this.call('POST', '/webhooks', { body, headers: { 'content-type': 'application/json' } })
    return parseJson(await response.text()) as CreatedSubscription
  }

  /** The token's subscriptions (every one for plants:admin), oldest first. */
  async listSubscriptions(): Promise<Subscription[]> {
    const response = await this.call('GET', '/webhooks')
    return parseJson(await response.text()) as Subscription[]
  }

  async getSubscription(id: string): Promise<Subscription> {
    const response = await this.call('GET', `/webhooks/${encodeURIComponent(id)}`)
    return parseJson(await response.text()) as Subscription
  }

  /** Changes url, events or enabled (true turns a disabled subscription back on). */
  async updateSubscription(id: string, patch: SubscriptionPatch): Promise<Subscription> {
    const response = await this.call('PATCH', `/webhooks/${encodeURIComponent(id)}`, {
      body: JSON.stringify(patch),
      headers: { 'content-type': 'application/merge-patch+json' },
    })
    return parseJson(await response.text()) as Subscription
  }

  async deleteSubscription(id: string): Promise<void> {
    const response = await this.call('DELETE', `/webhooks/${encodeURIComponent(id)}`)
    await response.body?.cancel()
  }
}
