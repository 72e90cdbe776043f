-- Lets the previous release (30e0bae) write events beside this one (CONTRACT.md section 18).
-- 30e0bae joins the subscriptions without locking them, so a subscription deleted after its
-- statement's snapshot still gets an event row, and the foreign key of 009 answered that insert
-- with an error: a 500 for the create, the plant not written. This release locks each
-- subscription FOR KEY SHARE and skips one that is gone; the trigger does the same for any
-- insert, so the older statement succeeds and the outbox stays whole (no event without its
-- subscription, the foreign key kept). Dropping the foreign key instead would leave events of
-- deleted subscriptions for the delivery workers to trip on, and lose ON DELETE CASCADE.
-- 009 now creates the same trigger before its foreign key; this file, idempotent, gives it to
-- databases that applied 009 before it did.
-- The trigger may be dropped by the first release whose previous release locks as this one does.
SET LOCAL lock_timeout = '3s';
SET LOCAL statement_timeout = '10s';

CREATE OR REPLACE FUNCTION webhook_deliveries_skip_gone_subscription() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A fresh snapshot (READ COMMITTED): a delete that committed since the statement began is
  -- seen, and one under way is waited for.
  PERFORM 1 FROM webhook_subscriptions WHERE id = NEW.subscription_id FOR KEY SHARE;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END
$$;

CREATE OR REPLACE TRIGGER webhook_deliveries_skip_gone_subscription BEFORE INSERT ON webhook_deliveries
  FOR EACH ROW EXECUTE FUNCTION webhook_deliveries_skip_gone_subscription();
