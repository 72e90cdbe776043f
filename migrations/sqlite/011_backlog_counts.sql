-- What /metrics and pruning read without scanning the outbox (a million pending events took a
-- second of the event loop per scrape, and the pruning as long every minute):
-- - webhook_backlog: how many events are pending, kept by triggers in the transaction of each change;
-- - the oldest pending event by an index on its age;
-- - finished events by an index on when they finished, for the pruning.
CREATE TABLE webhook_backlog (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pending INTEGER NOT NULL
) STRICT;
INSERT INTO webhook_backlog (id, pending) SELECT 1, count(*) FROM webhook_deliveries WHERE state = 'pending';

CREATE TRIGGER webhook_backlog_insert AFTER INSERT ON webhook_deliveries WHEN new.state = 'pending'
BEGIN
  UPDATE webhook_backlog SET pending = pending + 1 WHERE id = 1;
END;

CREATE TRIGGER webhook_backlog_delete AFTER DELETE ON webhook_deliveries WHEN old.state = 'pending'
BEGIN
  UPDATE webhook_backlog SET pending = pending - 1 WHERE id = 1;
END;

CREATE TRIGGER webhook_backlog_update AFTER UPDATE OF state ON webhook_deliveries WHEN (old.state = 'pending') <> (new.state = 'pending')
BEGIN
  UPDATE webhook_backlog SET pending = pending + CASE WHEN new.state = 'pending' THEN 1 ELSE -1 END WHERE id = 1;
END;

CREATE INDEX webhook_deliveries_pending_by_age ON webhook_deliveries (created_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE state <> 'pending';
