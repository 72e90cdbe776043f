-- Each plant's version: 1 when created (and for every plant before this), one more at each change (ETag, If-Match).
ALTER TABLE plants ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
