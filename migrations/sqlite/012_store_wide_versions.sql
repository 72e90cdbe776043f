-- A plant's version is drawn from one counter for the whole store (CONTRACT section 17), so a
-- tag is never given to two states of one id, across a delete and a re-create.
-- The counter starts above every tag given before: versions were counted per plant (1, 2, ...),
-- a deleted plant's tags are not in the table, and no plant reaches 10^12 changes, so every
-- tag from now on is above every earlier one. Existing plants keep their version until changed.
CREATE TABLE plant_version_counter (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  value INTEGER NOT NULL
);
INSERT INTO plant_version_counter (id, value) SELECT 1, max(1000000000000, coalesce(max(version), 0)) FROM plants;
