-- The event types a subscription receives, space-separated (src/api/events.ts): rows before it had newPlant only.
ALTER TABLE webhook_subscriptions ADD COLUMN events TEXT NOT NULL DEFAULT 'newPlant';
