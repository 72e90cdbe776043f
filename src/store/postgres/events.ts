import { NEW_PLANT, PLANT_DELETED, PLANT_UPDATED } from '../../api/events.js'
import { receives } from '../shared/rows.js'

// The SQL that writes events into the outbox: the one place a new event type touches.

const INSERT_EVENTS = 'INSERT INTO webhook_deliveries (subscription_id, event, plant_id, body, trace_parent)'

/**
 * The enabled subscriptions that receive `event` and cover the owner of `c`. Each is locked FOR
 * KEY SHARE, as the events' foreign key would lock it: one deleted since this statement's
 * snapshot is skipped (no event for it, and no foreign key error), and a delete waits for this
 * transaction, then takes the events with it.
 */
const subscriptionsFor = (event: string) =>
  `JOIN webhook_subscriptions s ON s.disabled_at IS NULL AND (s.all_plants OR s.subject = c.owner) AND ${receives('s.events', event)} ` +
  'FOR KEY SHARE OF s'

/** A CTE `events` writing newPlant for the created rows `created` (id, owner), with their body and traceparent from `input` (id, body, trace_parent). */
export const NEW_PLANTS_EVENTS =
  `events AS (${INSERT_EVENTS} SELECT s.id, '${NEW_PLANT.name}', c.id, i.body, i.trace_parent FROM created c JOIN input i ON i.id = c.id ` +
  `${subscriptionsFor(NEW_PLANT.name)}) `

/** A CTE `events` writing newPlant for the one created row `created` (id, owner): body $5, traceparent $6. */
export const NEW_PLANT_EVENTS = `events AS (${INSERT_EVENTS} SELECT s.id, '${NEW_PLANT.name}', c.id, $5, $6 FROM created c ${subscriptionsFor(NEW_PLANT.name)}) `

/** newPlant for a plant created inside a transaction: $1 id, $2 body, $3 owner, $4 traceparent. */
export const INSERT_NEW_PLANT_EVENTS = `${INSERT_EVENTS} SELECT s.id, '${NEW_PLANT.name}', $1, $2, $4 FROM (SELECT $3::text AS owner) c ${subscriptionsFor(NEW_PLANT.name)}`

/** plantUpdated for a plant changed inside a transaction: $1 id, $2 body, $3 owner, $4 traceparent. */
export const INSERT_UPDATED_EVENTS = `${INSERT_EVENTS} SELECT s.id, '${PLANT_UPDATED.name}', $1, $2, $4 FROM (SELECT $3::text AS owner) c ${subscriptionsFor(PLANT_UPDATED.name)}`

/** plantDeleted for a plant deleted inside a transaction: $1 id, $2 owner, $3 traceparent. */
export const INSERT_DELETED_EVENTS = `${INSERT_EVENTS} SELECT s.id, '${PLANT_DELETED.name}', $1, '{"id":' || $1::int8::text || '}', $3 FROM (SELECT $2::text AS owner) c ${subscriptionsFor(PLANT_DELETED.name)}`

/** A CTE `events` writing plantDeleted for the deleted rows `deleted` (id, owner, trace_parent); the body is PLANT_DELETED's, written in SQL: an int8's text is exact. */
export const DELETED_EVENTS =
  `events AS (${INSERT_EVENTS} SELECT s.id, '${PLANT_DELETED.name}', c.id, '{"id":' || c.id::text || '}', c.trace_parent ` +
  `FROM deleted c ${subscriptionsFor(PLANT_DELETED.name)}) `

/** A ping for subscription $1 (message id $2, plant id $3, body $4, traceparent $5), locked as a create locks it. */
export const INSERT_PING =
  'INSERT INTO webhook_deliveries (subscription_id, event, message_id, plant_id, body, trace_parent) ' +
  "SELECT id, 'ping', $2, $3, $4, $5 FROM webhook_subscriptions WHERE id = $1 FOR KEY SHARE"
