-- The state of an attempt lives in the database, where every worker process sees it:
-- - `leased_until`: an attempt of the event is under way until then (a claim); a redeliver
--   served by any process sees it, and an outcome is recorded only under its claim;
-- - `round_start`: the attempts made before the current round of retries (a redeliver or a
--   recover starts one): the retry schedule and the give-up count from it, while `attempts`
--   keeps counting every attempt made.
ALTER TABLE webhook_deliveries ADD COLUMN leased_until INTEGER;
ALTER TABLE webhook_deliveries ADD COLUMN round_start INTEGER NOT NULL DEFAULT 0;
