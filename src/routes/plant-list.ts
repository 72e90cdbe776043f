import { Readable } from 'node:stream'
import { EMPTY_PAGE, type PlantPage, type PlantQuery, type PlantRecords } from '../store/plants.js'

/** Rows fetched per query; a response larger than this is streamed page by page. */
const LIST_BATCH = 500

interface PlantList {
  /** The JSON array when it fit in one batch, else a stream of its text. */
  body: string | Readable
  /** The id after which the next page starts, when `limit` cut the list. */
  nextAfter: bigint | null
}

/**
 * Reads the plants of `query` in id order, at most `limit` (undefined: all of them).
 * Larger results are streamed with keyset paging, so memory stays flat whatever the size
 * and no database connection or read transaction is held while the client reads.
 */
export async function listPlants(plants: PlantRecords, query: PlantQuery, limit: number | undefined): Promise<PlantList> {
  const wanted = limit ?? Infinity
  const firstSize = Math.min(wanted, LIST_BATCH)
  const first = firstSize === 0 ? EMPTY_PAGE : await plants.list(query, firstSize)
  const complete = first.count < firstSize || first.count === wanted
  if (complete) {
    return { body: `[${first.json}]`, nextAfter: limit !== undefined && first.count === limit ? first.lastId : null }
  }
  // The page's last id, found before the first byte: it bounds the stream, so the Link header
  // and the body agree even when plants are created while the page is being sent.
  const upTo = limit === undefined ? null : await plants.nthId(query, limit)
  return { body: Readable.from(streamJsonArray(plants, { ...query, upTo }, first, wanted)), nextAfter: upTo }
}

async function* streamJsonArray(plants: PlantRecords, query: PlantQuery, first: PlantPage, wanted: number) {
  let page = first
  let requested = LIST_BATCH
  let sent = 0
  let separator = '['
  for (;;) {
    if (page.count > 0) {
      yield separator + page.json
      separator = ','
    }
    sent += page.count
    if (page.lastId === null || page.count < requested || sent >= wanted) break
    requested = Math.min(LIST_BATCH, wanted - sent)
    page = await plants.list({ ...query, after: page.lastId }, requested)
  }
  yield separator === '[' ? '[]' : ']'
}
