CREATE TABLE plants (
  id INTEGER PRIMARY KEY,
  owner TEXT NOT NULL,
  name TEXT NOT NULL,
  tag TEXT,
  created_at INTEGER NOT NULL
) STRICT;

CREATE INDEX plants_by_owner ON plants (owner, id);
CREATE INDEX plants_by_owner_tag ON plants (owner, tag, id);
CREATE INDEX plants_by_tag ON plants (tag, id);

CREATE TABLE tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  hash TEXT NOT NULL UNIQUE,
  subject TEXT NOT NULL,
  scopes TEXT NOT NULL,
  name TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  revoked_at INTEGER
) STRICT;
