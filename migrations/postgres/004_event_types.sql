-- The outbox row names its event type (src/api/events.ts); rows before it are all newPlant.
-- Released before squawk ran, so kept as it was; migrate sets lock_timeout (3s) before each file, and a
-- migration may run long on a large table: its waits for locks, not its work, are bounded.
-- squawk-ignore require-lock-timeout, require-statement-timeout
ALTER TABLE webhook_deliveries ADD COLUMN event text NOT NULL DEFAULT 'newPlant';
