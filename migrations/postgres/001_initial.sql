CREATE TABLE plants (
  id bigint PRIMARY KEY,
  owner text NOT NULL,
  name text NOT NULL,
  tag text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Released before squawk ran, so kept as it was; migrate sets lock_timeout (3s) before each file, and a
-- migration may run long on a large table: its waits for locks, not its work, are bounded.
-- squawk-ignore require-lock-timeout, require-statement-timeout
CREATE INDEX plants_by_owner ON plants (owner, id);
CREATE INDEX plants_by_owner_tag ON plants (owner, tag, id);
CREATE INDEX plants_by_tag ON plants (tag, id);

CREATE TABLE tokens (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  hash text NOT NULL UNIQUE,
  subject text NOT NULL,
  scopes text NOT NULL,
  name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz
);
