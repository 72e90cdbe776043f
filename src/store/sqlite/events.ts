import type BetterSqlite3 from 'better-sqlite3'
import { NEW_PLANT, PLANT_DELETED, PLANT_UPDATED } from '../../api/events.js'
import { receives } from '../shared/rows.js'

const INSERT_EVENT =
  'INSERT INTO webhook_deliveries (subscription_id, event, message_id, plant_id, body, next_attempt_at, created_at, trace_parent)'

/** One event per enabled subscription that receives `event` and covers the owner, in the transaction of the plant. */
const plantEvent = (event: string) =>
  `${INSERT_EVENT} SELECT id, '${event}', 'msg_' || lower(hex(randomblob(16))), ?, ?, ?, ?, ? FROM webhook_subscriptions ` +
  `WHERE disabled_at IS NULL AND (all_plants = 1 OR subject = ?) AND ${receives('events', event)}`

/**
 * The SQL that writes events into the outbox: the one place a new event type touches. Each
 * takes (plant id, body, due, created, traceparent, owner); a ping (message id, plant id, body,
 * due, created, traceparent, subscription id).
 */
export function eventStatements(db: BetterSqlite3.Database) {
  return {
    newPlant: db.prepare(plantEvent(NEW_PLANT.name)),
    plantDeleted: db.prepare(plantEvent(PLANT_DELETED.name)),
    plantUpdated: db.prepare(plantEvent(PLANT_UPDATED.name)),
    ping: db.prepare(`${INSERT_EVENT} SELECT id, 'ping', ?, ?, ?, ?, ?, ? FROM webhook_subscriptions WHERE id = ?`),
  }
}
