import { Readable } from 'node:stream'
import fastJson from 'fast-json-stringify'
import { PlantSchema } from './schemas.js'
import type { Plant, PlantQuery, PlantRow, PlantStore } from './store/store.js'

/** Rows fetched per query; a response larger than this is streamed page by page. */
export const LIST_BATCH = 500

const serializePlant = fastJson(PlantSchema) as (plant: Plant) => string

export interface PlantList {
  /** The whole array when it fit in one batch, else a stream of its JSON text. */
  body: Plant[] | Readable
  /** The id after which the next page starts, when `limit` cut the list. */
  nextAfter: bigint | null
}

const toPlant = (row: PlantRow): Plant => (row.tag === undefined ? { name: row.name } : { name: row.name, tag: row.tag })

/**
 * Reads the plants of `query` in id order, at most `limit` (undefined: all of them).
 * Larger results are streamed with keyset paging, so memory stays flat whatever the size
 * and no database connection or read transaction is held while the client reads.
 */
export async function listPlants(store: PlantStore, query: PlantQuery, limit: number | undefined): Promise<PlantList> {
  const wanted = limit ?? Infinity
  const firstSize = Math.min(wanted, LIST_BATCH)
  const first = firstSize === 0 ? [] : await store.listPlants(query, firstSize)
  const complete = first.length < firstSize || first.length === wanted
  if (complete) {
    const last = first.at(-1)
    return { body: first.map(toPlant), nextAfter: limit !== undefined && last && first.length === limit ? last.id : null }
  }
  // The page's last id, found before the first byte: it bounds the stream, so the Link header
  // and the body agree even when plants are created while the page is being sent.
  const upTo = limit === undefined ? null : await store.nthPlantId(query, limit)
  return { body: Readable.from(streamJsonArray(store, { ...query, upTo }, first, wanted)), nextAfter: upTo }
}

async function* streamJsonArray(store: PlantStore, query: PlantQuery, first: PlantRow[], wanted: number) {
  let page = first
  let requested = LIST_BATCH
  let sent = 0
  let separator = '['
  for (;;) {
    let chunk = ''
    for (const row of page) {
      chunk += separator + serializePlant(row)
      separator = ','
    }
    if (chunk !== '') yield chunk
    sent += page.length
    const last = page.at(-1)
    if (last === undefined || page.length < requested || sent >= wanted) break
    requested = Math.min(LIST_BATCH, wanted - sent)
    page = await store.listPlants({ ...query, after: last.id }, requested)
  }
  yield separator === '[' ? '[]' : ']'
}
