-- The outbox row names its event type (src/api/events.ts); rows before it are all newPlant.
ALTER TABLE webhook_deliveries ADD COLUMN event text NOT NULL DEFAULT 'newPlant';
