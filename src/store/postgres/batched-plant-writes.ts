import { NEW_PLANT } from '../../api/events.js'
import { GroupCommit } from '../shared/group-commit.js'
import type { NewPlant } from '../plants.js'
import type { PostgresDatabase } from './database.js'
import { DELETED_EVENTS, NEW_PLANTS_EVENTS, NEW_PLANT_EVENTS } from './events.js'

export interface PlantTarget {
  id: bigint
  owner: string | null
  traceParent: string | null
}

const idKey = (write: { id: bigint }) => String(write.id)

/** For each write, in order, whether the statement changed its id. */
function changedIds(writes: { id: bigint }[], rows: { id: string }[]): boolean[] {
  const changed = new Set(rows.map((row) => row.id))
  return writes.map((write) => changed.has(String(write.id)))
}

/** For each create, in order, the version its plant was given; null when its id existed. */
function createdVersions(plants: { id: bigint }[], rows: { id: string; version: string }[]): (number | null)[] {
  const versions = new Map(rows.map((row) => [row.id, Number(row.version)]))
  return plants.map((plant) => versions.get(String(plant.id)) ?? null)
}

/**
 * The unconditional creates and deletes of plants: those of one turn of the event loop go to
 * the server as one statement each, so one round trip, one plan and one commit for all of them.
 * Two writes to one id never share a statement: the second must see the first's outcome. Each
 * statement writes its plants' events too, so in the same transaction.
 */
export class BatchedPlantWrites {
  constructor(private readonly database: PostgresDatabase) {}

  private readonly creates = new GroupCommit<NewPlant, number | null>(async (plants) => {
    if (plants.length === 1) {
      const [plant] = plants as [NewPlant]
      const result = await this.database.query<{ id: string; version: string }>(
        'create_plant',
        `WITH created AS (INSERT INTO plants (id, owner, name, tag) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING RETURNING id, owner, version), ` +
          `${NEW_PLANT_EVENTS}SELECT id::text AS id, version::text AS version FROM created`,
        [String(plant.id), plant.owner, plant.name, plant.tag, NEW_PLANT.body(plant), plant.traceParent ?? null],
      )
      return createdVersions(plants, result.rows)
    }
    const result = await this.database.query<{ id: string; version: string }>(
      'create_plants',
      'WITH input AS (SELECT * FROM unnest($1::int8[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS i (id, owner, name, tag, body, trace_parent)), ' +
        'created AS (INSERT INTO plants (id, owner, name, tag) SELECT id, owner, name, tag FROM input ON CONFLICT (id) DO NOTHING RETURNING id, owner, version), ' +
        `${NEW_PLANTS_EVENTS}SELECT id::text AS id, version::text AS version FROM created`,
      [
        plants.map((plant) => String(plant.id)),
        plants.map((plant) => plant.owner),
        plants.map((plant) => plant.name),
        plants.map((plant) => plant.tag),
        plants.map((plant) => NEW_PLANT.body(plant)),
        plants.map((plant) => plant.traceParent ?? null),
      ],
    )
    return createdVersions(plants, result.rows)
  }, idKey)

  private readonly deletes = new GroupCommit<PlantTarget, boolean>(async (targets) => {
    if (targets.length === 1) {
      const [{ id, owner, traceParent }] = targets as [PlantTarget]
      // A deletion writes its events in the same statement, so in the same transaction.
      const result =
        owner === null
          ? await this.database.query(
              'delete_plant',
              `WITH deleted AS (DELETE FROM plants WHERE id = $1 RETURNING id, owner, $2::text AS trace_parent), ${DELETED_EVENTS}SELECT id FROM deleted`,
              [String(id), traceParent],
            )
          : await this.database.query(
              'delete_own_plant',
              `WITH deleted AS (DELETE FROM plants WHERE id = $1 AND owner = $2 RETURNING id, owner, $3::text AS trace_parent), ${DELETED_EVENTS}SELECT id FROM deleted`,
              [String(id), owner, traceParent],
            )
      return [result.rowCount === 1]
    }
    const result = await this.database.query<{ id: string }>(
      'delete_plants',
      'WITH deleted AS (DELETE FROM plants AS p USING unnest($1::int8[], $2::text[], $3::text[]) AS d (id, owner, trace_parent) ' +
        'WHERE p.id = d.id AND (d.owner IS NULL OR p.owner = d.owner) RETURNING p.id, p.owner, d.trace_parent), ' +
        `${DELETED_EVENTS}SELECT id::text AS id FROM deleted`,
      [targets.map((target) => String(target.id)), targets.map((target) => target.owner), targets.map((target) => target.traceParent)],
    )
    return changedIds(targets, result.rows)
  }, idKey)

  /** The created plant's version: null when its id exists. */
  create(plant: NewPlant): Promise<number | null> {
    return this.creates.add(plant)
  }

  /** Whether a plant `target.owner` may reach (null: any) was deleted. */
  delete(target: PlantTarget): Promise<boolean> {
    return this.deletes.add(target)
  }

  /** Commits the writes still waiting for their turn. */
  async flush(): Promise<void> {
    await Promise.all([this.creates.flush(), this.deletes.flush()])
  }
}
