-- The outbox rebuilt so that the database keeps it whole (SQLite cannot add these to a table):
-- - an event belongs to its subscription: deleting the subscription deletes its events, and no
--   event can be written for a subscription that is gone;
-- - AUTOINCREMENT: a row id is never used twice, so an outcome written by id after its event
--   was deleted lands on no other event;
-- - `redeliver`: a redeliver asked for while an attempt is under way; when that attempt's
--   outcome is recorded, the event is due again at once, with a new round of retries.
DELETE FROM webhook_deliveries WHERE subscription_id NOT IN (SELECT id FROM webhook_subscriptions);

CREATE TABLE webhook_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
  message_id TEXT NOT NULL,
  event TEXT NOT NULL DEFAULT 'newPlant',
  plant_id INTEGER NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending', -- pending, delivered or given_up
  attempts INTEGER NOT NULL DEFAULT 0,
  redeliver INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  finished_at INTEGER,
  last_result TEXT,
  last_status INTEGER,
  last_attempt_at INTEGER,
  trace_parent TEXT
) STRICT;

INSERT INTO webhook_events (id, subscription_id, message_id, event, plant_id, body, state, attempts, next_attempt_at, created_at,
  finished_at, last_result, last_status, last_attempt_at, trace_parent)
SELECT id, subscription_id, message_id, event, plant_id, body, state, attempts, next_attempt_at, created_at,
  finished_at, last_result, last_status, last_attempt_at, trace_parent
FROM webhook_deliveries;

DROP TABLE webhook_deliveries;
ALTER TABLE webhook_events RENAME TO webhook_deliveries;

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries (subscription_id, id);
