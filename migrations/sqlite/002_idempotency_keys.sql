-- The outcome of the first create made with each (subject, Idempotency-Key), written in the
-- same transaction as the plant. `created` is 1 when that create answered 200, 0 when it
-- answered 400 because the id existed.
CREATE TABLE idempotency_keys (
  subject TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  created INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (subject, key)
) STRICT;

CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
