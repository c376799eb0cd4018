-- Background workers sleep while there is nothing to do and wake on a notification on the channel
-- `ponte_work`. Every state change commits together with the outbox event that reports it, so one
-- notification per transaction that records events tells them that work may have arrived. PostgreSQL
-- delivers it at commit (never for a rolled-back transaction) and folds the identical notifications of
-- one transaction into one.
CREATE FUNCTION notify_work() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('ponte_work', '');
  RETURN NULL;
END
$$;

CREATE TRIGGER events_notify_work AFTER INSERT ON events
  FOR EACH STATEMENT EXECUTE FUNCTION notify_work();

-- The dispatcher claims due deliveries in (next_attempt_at, event_seq) order: with both in the index the
-- claim reads the due list in order and stops at its window, instead of sorting every due delivery.
CREATE INDEX webhook_deliveries_due_order ON webhook_deliveries (next_attempt_at, event_seq)
  WHERE status = 'PENDING';
