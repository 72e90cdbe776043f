-- The W3C traceparent of the request that wrote the event, while tracing is on: its attempts join that trace.
ALTER TABLE webhook_deliveries ADD COLUMN trace_parent TEXT;
