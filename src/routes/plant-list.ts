import { Readable } from 'node:stream'
import { setImmediate as nextTurn } from 'node:timers/promises'
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
 * Batches read ahead of what the socket has taken: one, so that a reader that reads slowly
 * holds one batch in memory, not sixteen.
 */
const BATCHES_AHEAD = 1

/**
 * Reads the plants of `query` in id order, at most `limit` (undefined: all of them).
 * Larger results are streamed with keyset paging, so memory stays flat whatever the size
 * and no database connection or read transaction is held while the client reads. Each batch
 * is read in a turn of the event loop of its own, so other requests are served between them
 * (on SQLite a read runs on the event loop: a whole list in one turn stopped every request).
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
  const body = Readable.from(streamJsonArray(plants, { ...query, upTo }, first, wanted), { highWaterMark: BATCHES_AHEAD })
  return { body, nextAfter: upTo }
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
    // A socket that takes whatever is written (a fast reader, a large kernel buffer) would
    // otherwise ask for the next batch in the same turn, and so on to the end of the list.
    await nextTurn()
    page = await plants.list({ ...query, after: page.lastId }, requested)
  }
  yield separator === '[' ? '[]' : ']'
}
