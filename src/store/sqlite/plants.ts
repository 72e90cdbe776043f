import { setImmediate as nextTurn } from 'node:timers/promises'
import { NEW_PLANT, PLANT_DELETED, PLANT_UPDATED } from '../../api/events.js'
import { type PlantRow, applied } from '../shared/plant-change.js'
import { KeysInFlight, replay } from '../shared/idempotency.js'
import { idRange, pageKey, variantsByFilter } from '../shared/plant-query.js'
import { toPlant } from '../shared/rows.js'
import { SharedTurnReads } from '../shared/shared-reads.js'
import {
  type ConditionalDelete,
  EMPTY_PAGE,
  type IdempotencyKey,
  type Preconditions,
  matches,
  type PlantChange,
  type PlantUpdate,
  type VersionedPlant,
  type KeyedCreate,
  type NewPlant,
  type PlantPage,
  type PlantQuery,
  type PlantRecords,
} from '../plants.js'
import type { SqliteDatabase } from './database.js'
import { eventStatements } from './events.js'
import { CACHED_PAGE_ROWS, PageCache } from './page-cache.js'

/** Ids read per statement while finding the n-th: a few milliseconds of the event loop. */
const NTH_ID_SLICE = 20_000

/** A plant as the JSON object of the API, made by SQLite: `tag` is left out when it is NULL. */
const PLANT_JSON = "CASE WHEN tag IS NULL THEN json_object('name', name) ELSE json_object('name', name, 'tag', tag) END"
/** The same with the id first, an exact integer literal (SQLite writes its 64-bit integers in full). */
const PLANT_JSON_WITH_ID =
  "CASE WHEN tag IS NULL THEN json_object('id', id, 'name', name) ELSE json_object('id', id, 'name', name, 'tag', tag) END"

/** WHERE clause of a plant query, with the range of `idRange`. */
function plantFilter(byOwner: boolean, byTag: boolean): string {
  return [byOwner && 'owner = @owner', byTag && 'tag = @tag', 'id BETWEEN @from AND @to'].filter(Boolean).join(' AND ')
}

type KeptOutcome = { fingerprint: string; created: number; version: number | null } | undefined

export class SqlitePlants implements PlantRecords {
  private readonly statements
  private readonly events
  private readonly queries
  private readonly pageCache = new PageCache()
  private readonly pageReads = new SharedTurnReads<PlantPage>()
  private readonly keysInFlight = new KeysInFlight()
  /**
   * When the cached pages were read: PRAGMA data_version (it changes when another connection
   * commits) and the writes this connection had begun (which data_version does not count).
   */
  private pagesReadAt = { dataVersion: -1, writesBegun: -1 }

  constructor(private readonly database: SqliteDatabase) {
    const { db } = database
    this.queries = variantsByFilter((byOwner, byTag, withId) => ({
      // One row with the page's JSON text: a JS value per plant cost more than the query itself.
      // (CAST: a bare bound LIMIT made SQLite's query measurably slower.)
      list: db
        .prepare(
          `SELECT group_concat(plant, ',' ORDER BY id), count(*), max(id) FROM (` +
            `SELECT id, ${withId ? PLANT_JSON_WITH_ID : PLANT_JSON} AS plant FROM plants WHERE ${plantFilter(byOwner, byTag)} ORDER BY id LIMIT CAST(@limit AS INTEGER))`,
        )
        .safeIntegers(true)
        .raw(true),
      // One slice of the walk to the n-th id: how many ids the slice holds, and its last.
      idSlice: db
        .prepare(
          `SELECT count(*), max(id) FROM (SELECT id FROM plants WHERE ${plantFilter(byOwner, byTag)} ORDER BY id LIMIT CAST(@limit AS INTEGER))`,
        )
        .safeIntegers(true)
        .raw(true),
    }))
    this.statements = {
      // Positional parameters: binding by name cost more per insert.
      insert: db.prepare(
        'INSERT INTO plants (id, owner, name, tag, created_at, version) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
      ),
      get: db.prepare('SELECT name, tag, version FROM plants WHERE id = ?'),
      getOwn: db.prepare('SELECT name, tag, version FROM plants WHERE id = ? AND owner = ?'),
      // What a conditional write reads under the write lock.
      read: db.prepare('SELECT owner, name, tag, version FROM plants WHERE id = ?'),
      update: db.prepare('UPDATE plants SET name = ?, tag = ?, version = ? WHERE id = ?'),
      deleteById: db.prepare('DELETE FROM plants WHERE id = ?'),
      // The owner names whose subscriptions hear of the deletion.
      delete: db.prepare('DELETE FROM plants WHERE id = ? RETURNING owner').pluck(),
      deleteOwn: db.prepare('DELETE FROM plants WHERE id = ? AND owner = ? RETURNING owner').pluck(),
      // With the version of the subject's plant now: a replay answers it.
      findKey: db.prepare(
        'SELECT k.fingerprint, k.created, p.version FROM idempotency_keys k LEFT JOIN plants p ON p.id = @id AND p.owner = k.subject ' +
          'WHERE k.subject = @subject AND k.key = @key AND k.created_at >= @since',
      ),
      keepKey: db.prepare(
        'INSERT INTO idempotency_keys (subject, key, fingerprint, created, created_at) VALUES (?, ?, ?, ?, ?) ' +
          'ON CONFLICT (subject, key) DO UPDATE SET fingerprint = excluded.fingerprint, created = excluded.created, created_at = excluded.created_at',
      ),
      pruneKeys: db.prepare(
        'DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE created_at < ? LIMIT ?)',
      ),
    }
    this.events = eventStatements(db)
  }

  /** The next version of the store's one counter, inside a write transaction: none is given twice, across deletes too. */
  private nextVersion(): number {
    return this.database.versions.take()
  }

  /** The plant and its events, inside a group commit's transaction; its version, null when the id exists. */
  private insert(plant: NewPlant, now: number): number | null {
    const version = this.nextVersion()
    // A refused insert leaves the counter moved on (the transaction goes on): harmless, as versions only need to be new.
    if (this.statements.insert.run(plant.id, plant.owner, plant.name, plant.tag, now, version).changes !== 1) return null
    if (this.database.subscribed)
      this.events.newPlant.run(plant.id, NEW_PLANT.body(plant), now, now, plant.traceParent ?? null, plant.owner)
    return version
  }

  create(plant: NewPlant): Promise<number | null> {
    return this.database.write(() => this.insert(plant, Date.now()))
  }

  /**
   * Joins the group commit like any create; inside the transaction, a fresh kept outcome of the
   * key is answered again, else the plant is inserted and its outcome kept. Each transaction is
   * atomic on the file, so two processes (WORKERS) with one key cannot both create.
   */
  async createWithKey(plant: NewPlant, key: IdempotencyKey): Promise<KeyedCreate> {
    const findKey = () =>
      this.statements.findKey.get({ id: plant.id, subject: plant.owner, key: key.key, since: key.keptSince.getTime() }) as KeptOutcome
    const kept = await this.database.run(findKey)
    // A key whose outcome is kept is answered from it, whoever else replays it meanwhile: only a
    // first request still being committed makes another wait (in-flight).
    if (kept !== undefined) return replay({ ...kept, created: kept.created === 1 }, key)
    return this.keysInFlight.run(plant.owner, key.key, () =>
      this.database.write((): KeyedCreate => {
        const kept = findKey()
        if (kept !== undefined) return replay({ ...kept, created: kept.created === 1 }, key)
        const now = Date.now()
        const version = this.insert(plant, now)
        this.statements.keepKey.run(plant.owner, key.key, key.fingerprint, version === null ? 0 : 1, now)
        return version === null ? { outcome: 'exists', replayed: false } : { outcome: 'created', replayed: false, version }
      }),
    )
  }

  pruneIdempotencyKeys(before: Date, limit: number): Promise<number> {
    return this.database.write(() => this.statements.pruneKeys.run(before.getTime(), limit).changes)
  }

  /**
   * Pages a client asks for again and again (a first page polled) come from the page cache
   * while no connection has committed since they were read: checking costs one PRAGMA,
   * a fraction of the query. Identical lists of one turn share one check, at its end.
   */
  list(query: PlantQuery, limit: number): Promise<PlantPage> {
    if (limit > CACHED_PAGE_ROWS) return this.database.run(() => this.readPage(query, limit))
    const key = pageKey(query, limit)
    return this.pageReads.read(key, () => this.database.run(() => this.cachedPage(key, query, limit)))
  }

  private cachedPage(key: string, query: PlantQuery, limit: number): PlantPage {
    const dataVersion = this.database.dataVersion()
    const { writesBegun } = this.database
    if (dataVersion !== this.pagesReadAt.dataVersion || writesBegun !== this.pagesReadAt.writesBegun) {
      this.pageCache.clear()
      this.pagesReadAt = { dataVersion, writesBegun }
    }
    const cached = this.pageCache.get(key)
    if (cached !== undefined) return cached
    const page = this.readPage(query, limit)
    this.pageCache.set(key, page)
    return page
  }

  private readPage(query: PlantQuery, limit: number): PlantPage {
    const range = idRange(query)
    if (range === null || limit <= 0) return EMPTY_PAGE
    const [json, count, lastId] = this.queries(query).list.get({ owner: query.owner, tag: query.tag, ...range, limit }) as [
      string | null,
      bigint,
      bigint | null,
    ]
    return { json: json ?? '', count: Number(count), lastId }
  }

  /**
   * Walks the index in slices of NTH_ID_SLICE ids, each in a turn of the event loop of its own:
   * one OFFSET over two million ids held every other request for a second.
   */
  async nthId(query: PlantQuery, n: number): Promise<bigint | null> {
    const range = idRange(query)
    if (range === null || n <= 0) return null
    const statement = this.queries(query).idSlice
    let from = range.from
    for (let left = n; ;) {
      const limit = Math.min(left, NTH_ID_SLICE)
      const [count, last] = (await this.database.run(() =>
        statement.get({ owner: query.owner, tag: query.tag, from, to: range.to, limit }),
      )) as [bigint, bigint | null]
      if (Number(count) < limit || last === null) return null
      left -= limit
      if (left === 0) return last
      if (last >= range.to) return null
      from = last + 1n
      await nextTurn()
    }
  }

  get(id: bigint, owner: string | null): Promise<VersionedPlant | null> {
    return this.database.run(() => {
      const row = (owner === null ? this.statements.get.get(id) : this.statements.getOwn.get(id, owner)) as
        { name: string; tag: string | null; version: number } | undefined
      return row === undefined ? null : { plant: toPlant(row), version: row.version }
    })
  }

  /** The plant's row when `owner` (null: anyone) may reach it; read inside a write, so nothing changes it meanwhile. */
  private readRow(id: bigint, owner: string | null): PlantRow | undefined {
    const row = this.statements.read.get(id) as PlantRow | undefined
    return row === undefined || (owner !== null && row.owner !== owner) ? undefined : row
  }

  update(
    id: bigint,
    owner: string | null,
    change: PlantChange,
    conditions: Preconditions | null,
    traceParent: string | null = null,
  ): Promise<PlantUpdate> {
    return this.database.write((): PlantUpdate => {
      const row = this.readRow(id, owner)
      if (row === undefined) return { outcome: 'not-found' }
      if (!matches(conditions, row.version)) return { outcome: 'precondition-failed' }
      const after = applied(row, change)
      if (!after.changed) return { outcome: 'unchanged', plant: after.plant, version: row.version }
      const version = this.nextVersion()
      this.statements.update.run(after.name, after.tag, version, id)
      if (this.database.subscribed) {
        const now = Date.now()
        this.events.plantUpdated.run(id, PLANT_UPDATED.body({ id, name: after.name, tag: after.tag }), now, now, traceParent, row.owner)
      }
      return { outcome: 'updated', plant: after.plant, version }
    })
  }

  deleteIfMatch(
    id: bigint,
    owner: string | null,
    conditions: Preconditions,
    traceParent: string | null = null,
  ): Promise<ConditionalDelete> {
    return this.database.write((): ConditionalDelete => {
      const row = this.readRow(id, owner)
      if (row === undefined) return 'not-found'
      if (!matches(conditions, row.version)) return 'precondition-failed'
      this.statements.deleteById.run(id)
      if (this.database.subscribed) {
        const now = Date.now()
        this.events.plantDeleted.run(id, PLANT_DELETED.body({ id }), now, now, traceParent, row.owner)
      }
      return 'deleted'
    })
  }

  delete(id: bigint, owner: string | null, traceParent: string | null = null): Promise<boolean> {
    return this.database.write(() => {
      const deletedOwner = (owner === null ? this.statements.delete.get(id) : this.statements.deleteOwn.get(id, owner)) as
        string | undefined
      if (deletedOwner === undefined) return false
      if (this.database.subscribed) {
        const now = Date.now()
        this.events.plantDeleted.run(id, PLANT_DELETED.body({ id }), now, now, traceParent, deletedOwner)
      }
      return true
    })
  }
}
