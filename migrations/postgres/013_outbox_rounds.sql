-- `round_start`: the attempts made before the current round of retries (a redeliver or a
-- recover starts one): the retry schedule and the give-up count from it, while `attempts`
-- keeps counting every attempt made.
ALTER TABLE webhook_deliveries ADD COLUMN round_start integer NOT NULL DEFAULT 0;
