-- Lets the previous release (30e0bae) redeliver beside this one (CONTRACT.md section 18).
-- 30e0bae's redeliver starts a new round by setting `attempts` to 0 and knows nothing of
-- `round_start` (013): left as it was, this release counted the round from it, saw the round
-- over after one attempt, and gave up. Whatever sets `attempts` below `round_start` starts a
-- new round from 0 here. The WHEN clause keeps this release's own updates (attempts only grow,
-- round_start is set to attempts) from calling the function at all.
-- The trigger may be dropped by the first release whose previous release knows round_start.
SET LOCAL lock_timeout = '3s';
SET LOCAL statement_timeout = '10s';

CREATE OR REPLACE FUNCTION webhook_deliveries_round_from_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.round_start := 0;
  RETURN NEW;
END
$$;

CREATE OR REPLACE TRIGGER webhook_deliveries_round_from_reset BEFORE UPDATE OF attempts ON webhook_deliveries
  FOR EACH ROW WHEN (NEW.attempts < NEW.round_start) EXECUTE FUNCTION webhook_deliveries_round_from_reset();
