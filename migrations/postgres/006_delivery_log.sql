-- The deliveries log (GET /webhooks/{id}/deliveries): each event's last answer and when it was
-- attempted, listed per subscription newest first. The index costs an event row one more
-- write; a create with no subscription writes no event row and pays nothing.
ALTER TABLE webhook_deliveries ADD COLUMN last_status integer;
ALTER TABLE webhook_deliveries ADD COLUMN last_attempt_at timestamptz;
CREATE INDEX webhook_deliveries_by_subscription ON webhook_deliveries (subscription_id, id);
