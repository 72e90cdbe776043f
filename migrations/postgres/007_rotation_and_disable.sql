-- Secret rotation: the secret a rotation replaced keeps signing beside the new one until
-- previous_secret_expires_at. Automatic disable: failing_since is the first failure since the
-- last 2xx (null while the receiver answers).
-- Released before squawk ran, so kept as it was; migrate sets lock_timeout (3s) before each file, and a
-- migration may run long on a large table: its waits for locks, not its work, are bounded.
-- squawk-ignore require-lock-timeout, require-statement-timeout
ALTER TABLE webhook_subscriptions ADD COLUMN previous_secret text;
ALTER TABLE webhook_subscriptions ADD COLUMN previous_secret_expires_at timestamptz;
ALTER TABLE webhook_subscriptions ADD COLUMN failing_since timestamptz;
