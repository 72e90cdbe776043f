-- The outcome of the first create made with each (subject, Idempotency-Key), written in the
-- same transaction as the plant. `created` is true when that create answered 200, false when
-- it answered 400 because the id existed.
CREATE TABLE idempotency_keys (
  subject text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  created boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (subject, key)
);

-- Released before squawk ran, so kept as it was; migrate sets lock_timeout (3s) before each file, and a
-- migration may run long on a large table: its waits for locks, not its work, are bounded.
-- squawk-ignore require-lock-timeout, require-statement-timeout
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
