-- The deliveries log (GET /webhooks/{id}/deliveries): each event's last answer and when it was
-- attempted, listed per subscription newest first. The index costs an event row one more
-- write; a create with no subscription writes no event row and pays nothing.
-- Released before squawk ran, so kept as it was; migrate sets lock_timeout (3s) before each file, and a
-- migration may run long on a large table: its waits for locks, not its work, are bounded.
-- last_status is an HTTP status code: an int cannot run out.
-- squawk-ignore require-lock-timeout, require-statement-timeout, prefer-bigint-over-int
ALTER TABLE webhook_deliveries ADD COLUMN last_status integer;
ALTER TABLE webhook_deliveries ADD COLUMN last_attempt_at timestamptz;
-- Released before squawk ran: built in the transaction, it held writes to the outbox for as long as
-- the build of an index over the events kept (WEBHOOK_RETENTION) took.
-- squawk-ignore require-concurrent-index-creation
CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries (subscription_id, id);
