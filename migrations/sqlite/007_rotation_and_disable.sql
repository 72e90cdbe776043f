-- Secret rotation: the secret a rotation replaced keeps signing beside the new one until
-- previous_secret_expires_at. Automatic disable: failing_since is the first failure since the
-- last 2xx (null while the receiver answers).
ALTER TABLE webhook_subscriptions ADD COLUMN previous_secret TEXT;
ALTER TABLE webhook_subscriptions ADD COLUMN previous_secret_expires_at INTEGER;
ALTER TABLE webhook_subscriptions ADD COLUMN failing_since INTEGER;
