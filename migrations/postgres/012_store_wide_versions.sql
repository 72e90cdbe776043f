-- A plant's version is drawn from one counter for the whole store (CONTRACT section 17), so a
-- tag is never given to two states of one id, across a delete and a re-create.
-- The counter starts above every tag given before: versions were counted per plant (1, 2, ...),
-- a deleted plant's tags are not in the table, and no plant reaches 10^12 changes, so every
-- tag from now on is above every earlier one. Existing plants keep their version until changed.
-- Only a default changes: no table rewrite; inserts that name no version (the previous release's
-- too) draw from the counter.
SET LOCAL lock_timeout = '3s';
-- Bounded, yet long enough for max(version) to read a large table once.
SET LOCAL statement_timeout = '5min';
CREATE SEQUENCE plant_versions AS bigint;
SELECT setval('plant_versions', GREATEST(1000000000000, (SELECT coalesce(max(version), 0) FROM plants)));
ALTER TABLE plants ALTER COLUMN version SET DEFAULT nextval('plant_versions');
