-- Each plant's version: 1 when created (and for every plant before this), one more at each change (ETag, If-Match).
-- A constant default: PostgreSQL adds the column without rewriting the table.
-- Released before squawk ran, so kept as it was; migrate sets lock_timeout (3s) before each file, and a
-- migration may run long on a large table: its waits for locks, not its work, are bounded.
-- squawk-ignore require-lock-timeout, require-statement-timeout
ALTER TABLE plants ADD COLUMN version bigint NOT NULL DEFAULT 1;
