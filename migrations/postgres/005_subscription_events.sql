-- The event types a subscription receives, space-separated (src/api/events.ts): rows before it had newPlant only.
-- Released before squawk ran, so kept as it was; migrate sets lock_timeout (3s) before each file, and a
-- migration may run long on a large table: its waits for locks, not its work, are bounded.
-- squawk-ignore require-lock-timeout, require-statement-timeout
ALTER TABLE webhook_subscriptions ADD COLUMN events text NOT NULL DEFAULT 'newPlant';
