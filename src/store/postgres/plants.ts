import type pg from 'pg'
import { NEW_PLANT, PLANT_UPDATED } from '../../api/events.js'
import { type PlantRow, applied } from '../shared/plant-change.js'
import { KeysInFlight, ownerKey, replay } from '../shared/idempotency.js'
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
import { BatchedPlantWrites } from './batched-plant-writes.js'
import type { PostgresDatabase } from './database.js'
import { INSERT_DELETED_EVENTS, INSERT_NEW_PLANT_EVENTS, INSERT_UPDATED_EVENTS } from './events.js'

/** The plant queries, one per combination of owner and tag filters, each a named prepared statement. */
function plantSql(byOwner: boolean, byTag: boolean, withId: boolean) {
  const variant = `${byOwner ? '_by_owner' : ''}${byTag ? '_by_tag' : ''}${withId ? '_with_id' : ''}`
  const opening = withId ? `'{"id":' || id::text || ',"name":'` : `'{"name":'`
  // $1 from, $2 to, $3 limit or offset, then owner and tag when filtered on.
  const filters = ['id BETWEEN $1 AND $2']
  if (byOwner) filters.push(`owner = $${filters.length + 3}`)
  if (byTag) filters.push(`tag = $${filters.length + 3}`)
  const where = filters.join(' AND ')
  return {
    // One row with the page's JSON text (no object per plant in the driver or here); the
    // object is written out by hand, as json_build_object would put spaces around colons.
    list: {
      name: `list_plants${variant}`,
      text:
        `SELECT string_agg(plant, ',' ORDER BY id) AS json, count(*)::int AS count, max(id)::text AS last_id FROM (` +
        `SELECT id, ${opening} || to_json(name)::text || CASE WHEN tag IS NULL THEN '}' ELSE ',"tag":' || to_json(tag)::text || '}' END AS plant ` +
        `FROM plants WHERE ${where} ORDER BY id LIMIT $3) AS page`,
    },
    nthId: { name: `nth_plant_id${variant}`, text: `SELECT id FROM plants WHERE ${where} ORDER BY id LIMIT 1 OFFSET $3` },
  }
}

const plantSqlFor = variantsByFilter(plantSql)

function plantValues(query: PlantQuery, range: { from: bigint; to: bigint }, count: number): unknown[] {
  const values: unknown[] = [String(range.from), String(range.to), count]
  if (query.owner !== null) values.push(query.owner)
  if (query.tag !== null) values.push(query.tag)
  return values
}

/** A kept outcome of (subject $1, key $2) kept since $3, with the version of the subject's plant $4 now. */
const FIND_KEY =
  'SELECT k.fingerprint, k.created, p.version::text AS version FROM idempotency_keys k ' +
  'LEFT JOIN plants p ON p.id = $4 AND p.owner = k.subject WHERE k.subject = $1 AND k.key = $2 AND k.created_at >= $3'

type KeptRow = { fingerprint: string; created: boolean; version: string | null }

const keptOutcome = (row: KeptRow) => ({ ...row, version: row.version === null ? null : Number(row.version) })

export class PostgresPlants implements PlantRecords {
  private readonly keysInFlight = new KeysInFlight()
  // Many clients asking for the same page at once (polling) cost the server one query a turn.
  private readonly pageReads = new SharedTurnReads<PlantPage>()
  private readonly batched: BatchedPlantWrites

  constructor(private readonly database: PostgresDatabase) {
    this.batched = new BatchedPlantWrites(database)
  }

  create(plant: NewPlant): Promise<number | null> {
    return this.batched.create(plant)
  }

  /**
   * One transaction per keyed create, under an advisory lock on (owner, key) taken without
   * waiting: when another instance holds it, that request is still in flight. Under the lock,
   * reading the kept outcome and then writing is safe across instances.
   */
  async createWithKey(plant: NewPlant, key: IdempotencyKey): Promise<KeyedCreate> {
    // A key whose outcome is kept is answered from it without the lock, so replays that overlap
    // each other all get it: only a first request still being committed is in flight.
    const keyValues = [plant.owner, key.key, key.keptSince, String(plant.id)]
    const kept = await this.database.query<KeptRow>('find_idempotency_key', FIND_KEY, keyValues)
    if (kept.rows[0] !== undefined) return replay(keptOutcome(kept.rows[0]), key)
    return this.keysInFlight.run(plant.owner, key.key, () =>
      this.database.transaction(async (client): Promise<KeyedCreate> => {
        const lock = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked', [
          ownerKey(plant.owner, key.key),
        ])
        if (lock.rows[0]?.locked !== true) return { outcome: 'in-flight' }
        const kept = await client.query<KeptRow>(FIND_KEY, keyValues)
        const row = kept.rows[0]
        if (row !== undefined) return replay(keptOutcome(row), key)
        const inserted = await client.query<{ version: string }>(
          'INSERT INTO plants (id, owner, name, tag) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING RETURNING version::text AS version',
          [String(plant.id), plant.owner, plant.name, plant.tag],
        )
        const version = inserted.rows[0] === undefined ? null : Number(inserted.rows[0].version)
        const created = version !== null
        if (created) {
          await client.query(INSERT_NEW_PLANT_EVENTS, [String(plant.id), NEW_PLANT.body(plant), plant.owner, plant.traceParent ?? null])
        }
        await client.query(
          'INSERT INTO idempotency_keys (subject, key, fingerprint, created) VALUES ($1, $2, $3, $4) ' +
            'ON CONFLICT (subject, key) DO UPDATE SET fingerprint = excluded.fingerprint, created = excluded.created, created_at = now()',
          [plant.owner, key.key, key.fingerprint, created],
        )
        return version === null ? { outcome: 'exists', replayed: false } : { outcome: 'created', replayed: false, version }
      }),
    )
  }

  async pruneIdempotencyKeys(before: Date, limit: number): Promise<number> {
    const result = await this.database.query(
      'prune_idempotency_keys',
      'DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created_at < $1 LIMIT $2)',
      [before, limit],
    )
    return result.rowCount ?? 0
  }

  list(query: PlantQuery, limit: number): Promise<PlantPage> {
    return this.pageReads.read(pageKey(query, limit), () => this.readPage(query, limit))
  }

  private async readPage(query: PlantQuery, limit: number): Promise<PlantPage> {
    const range = idRange(query)
    if (range === null || limit <= 0) return EMPTY_PAGE
    const { name, text } = plantSqlFor(query).list
    const result = await this.database.read<{ json: string | null; count: number; last_id: string | null }>(
      name,
      text,
      plantValues(query, range, limit),
    )
    const page = result.rows[0]
    if (page === undefined || page.count === 0) return EMPTY_PAGE
    return { json: page.json ?? '', count: page.count, lastId: page.last_id === null ? null : BigInt(page.last_id) }
  }

  async nthId(query: PlantQuery, n: number): Promise<bigint | null> {
    const range = idRange(query)
    if (range === null || n <= 0) return null
    const { name, text } = plantSqlFor(query).nthId
    const result = await this.database.read<{ id: string }>(name, text, plantValues(query, range, n - 1))
    const row = result.rows[0]
    return row === undefined ? null : BigInt(row.id)
  }

  async get(id: bigint, owner: string | null): Promise<VersionedPlant | null> {
    type Row = { name: string; tag: string | null; version: string }
    const result =
      owner === null
        ? await this.database.read<Row>('get_plant', 'SELECT name, tag, version::text AS version FROM plants WHERE id = $1', [String(id)])
        : await this.database.read<Row>(
            'get_own_plant',
            'SELECT name, tag, version::text AS version FROM plants WHERE id = $1 AND owner = $2',
            [String(id), owner],
          )
    const row = result.rows[0]
    return row === undefined ? null : { plant: toPlant(row), version: Number(row.version) }
  }

  /** The plant's row locked FOR UPDATE when `owner` (null: anyone) may reach it: a second writer waits, then sees the new version. */
  private async lockRow(client: pg.PoolClient, id: bigint, owner: string | null): Promise<PlantRow | undefined> {
    const result = await client.query<Omit<PlantRow, 'version'> & { version: string }>(
      'SELECT owner, name, tag, version::text AS version FROM plants WHERE id = $1 FOR UPDATE',
      [String(id)],
    )
    const row = result.rows[0]
    if (row === undefined || (owner !== null && row.owner !== owner)) return undefined
    return { ...row, version: Number(row.version) }
  }

  update(
    id: bigint,
    owner: string | null,
    change: PlantChange,
    conditions: Preconditions | null,
    traceParent: string | null = null,
  ): Promise<PlantUpdate> {
    return this.database.transaction(async (client): Promise<PlantUpdate> => {
      const row = await this.lockRow(client, id, owner)
      if (row === undefined) return { outcome: 'not-found' }
      if (!matches(conditions, row.version)) return { outcome: 'precondition-failed' }
      const after = applied(row, change)
      if (!after.changed) return { outcome: 'unchanged', plant: after.plant, version: row.version }
      const updated = await client.query<{ version: string }>(
        "UPDATE plants SET name = $2, tag = $3, version = nextval('plant_versions') WHERE id = $1 RETURNING version::text AS version",
        [String(id), after.name, after.tag],
      )
      const body = PLANT_UPDATED.body({ id, name: after.name, tag: after.tag })
      await client.query(INSERT_UPDATED_EVENTS, [String(id), body, row.owner, traceParent])
      return { outcome: 'updated', plant: after.plant, version: Number(updated.rows[0]?.version) }
    })
  }

  deleteIfMatch(
    id: bigint,
    owner: string | null,
    conditions: Preconditions,
    traceParent: string | null = null,
  ): Promise<ConditionalDelete> {
    return this.database.transaction(async (client): Promise<ConditionalDelete> => {
      const row = await this.lockRow(client, id, owner)
      if (row === undefined) return 'not-found'
      if (!matches(conditions, row.version)) return 'precondition-failed'
      await client.query('DELETE FROM plants WHERE id = $1', [String(id)])
      await client.query(INSERT_DELETED_EVENTS, [String(id), row.owner, traceParent])
      return 'deleted'
    })
  }

  delete(id: bigint, owner: string | null, traceParent: string | null = null): Promise<boolean> {
    return this.batched.delete({ id, owner, traceParent })
  }

  /** Commits the writes still waiting for their turn. */
  async flush(): Promise<void> {
    await this.batched.flush()
  }
}
