import type { Plant } from '../../api/schemas.js'
import type { PlantChange } from '../plants.js'
import { toPlant } from './rows.js'

/** A plant's row as a change reads it, under the write lock. */
export interface PlantRow {
  owner: string
  name: string
  tag: string | null
  version: number
}

/** The plant after `change`, and whether that differs from `row`. */
export function applied(row: PlantRow, change: PlantChange): { name: string; tag: string | null; plant: Plant; changed: boolean } {
  const name = change.name ?? row.name
  const tag = change.tag === undefined ? row.tag : change.tag
  return { name, tag, plant: toPlant({ name, tag }), changed: name !== row.name || tag !== row.tag }
}
