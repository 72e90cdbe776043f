-- Webhook subscriptions and the outbox of their events. An event row is written in the same
-- transaction as its plant, one per subscription active at that moment; the delivery worker
-- claims due rows by moving next_attempt_at past a lease, and `attempts` fences each outcome.
CREATE TABLE webhook_subscriptions (
  id TEXT PRIMARY KEY,
  subject TEXT NOT NULL,
  all_plants INTEGER NOT NULL,
  url TEXT NOT NULL,
  -- whsec_… as shown once, or sealed with WEBHOOK_SECRET_KEY (aes-256-gcm:…)
  secret TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  disabled_at INTEGER,
  disabled_reason TEXT
) STRICT;

CREATE INDEX webhook_subscriptions_by_subject ON webhook_subscriptions (subject);

CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY,
  subscription_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  plant_id INTEGER NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending', -- pending, delivered or given_up
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  finished_at INTEGER,
  last_result TEXT
) STRICT;

-- The only index besides the key: each one costs every create a write. Pruning walks the key
-- (old ids are the finished ones), and deleting a subscription walks this index.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
