-- `round_start`: the attempts made before the current round of retries (a redeliver or a
-- recover starts one): the retry schedule and the give-up count from it, while `attempts`
-- keeps counting every attempt made. A constant default: no table rewrite.
SET LOCAL lock_timeout = '3s';
SET LOCAL statement_timeout = '1min';
ALTER TABLE webhook_deliveries ADD COLUMN round_start bigint NOT NULL DEFAULT 0;
