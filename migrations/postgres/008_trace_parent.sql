-- The W3C traceparent of the request that wrote the event, while tracing is on: its attempts join that trace.
-- Released before squawk ran, so kept as it was; migrate sets lock_timeout (3s) before each file, and a
-- migration may run long on a large table: its waits for locks, not its work, are bounded.
-- squawk-ignore require-lock-timeout, require-statement-timeout
ALTER TABLE webhook_deliveries ADD COLUMN trace_parent TEXT;
