-- Each plant's version: 1 when created (and for every plant before this), one more at each change (ETag, If-Match).
-- A constant default: PostgreSQL adds the column without rewriting the table.
ALTER TABLE plants ADD COLUMN version bigint NOT NULL DEFAULT 1;
