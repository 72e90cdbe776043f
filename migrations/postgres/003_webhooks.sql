-- Webhook subscriptions and the outbox of their events. An event row is written in the same
-- transaction as its plant, one per subscription active at that moment; delivery workers of
-- every instance claim due rows (FOR UPDATE SKIP LOCKED) by moving next_attempt_at past a
-- lease, and `attempts` fences each outcome: a worker whose lease ran out records nothing.
CREATE TABLE webhook_subscriptions (
  id text PRIMARY KEY,
  subject text NOT NULL,
  all_plants boolean NOT NULL,
  url text NOT NULL,
  -- whsec_… as shown once, or sealed with WEBHOOK_SECRET_KEY (aes-256-gcm:…)
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  disabled_at timestamptz,
  disabled_reason text
);

-- Released before squawk ran, so kept as it was; migrate sets lock_timeout (3s) before each file, and a
-- migration may run long on a large table: its waits for locks, not its work, are bounded.
-- squawk-ignore require-lock-timeout, require-statement-timeout
CREATE INDEX webhook_subscriptions_by_subject ON webhook_subscriptions (subject);

CREATE TABLE webhook_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscription_id text NOT NULL,
  message_id text NOT NULL DEFAULT 'msg_' || replace(gen_random_uuid()::text, '-', ''),
  plant_id bigint NOT NULL,
  body text NOT NULL,
  state text NOT NULL DEFAULT 'pending', -- pending, delivered or given_up
  -- A handful of tries per event: an int cannot run out.
  -- squawk-ignore prefer-bigint-over-int
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  last_result text
);

-- The only index besides the key: each one costs every create a write. Pruning walks the key
-- (old ids are the finished ones), and deleting a subscription walks this index.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
