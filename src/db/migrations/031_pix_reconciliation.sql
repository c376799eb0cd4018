-- The PSP reconciliation sweep of each environment: the window it has covered completely, when the next
-- one is due, and a lease while one runs (claimed by one process at a time, taken over once it lapses).
CREATE TABLE pix_sweeps (
  environment    text PRIMARY KEY CHECK (environment IN ('sandbox', 'production')),
  swept_to       timestamptz,
  completed_at   timestamptz,
  next_at        timestamptz NOT NULL,
  lease_until    timestamptz,
  last_started_at timestamptz,
  last_calls     integer NOT NULL DEFAULT 0,
  last_applied   integer NOT NULL DEFAULT 0,
  last_error     text
);
-- items that could not be applied are kept with the reason, for operations (the console lists them)
ALTER TABLE pix_notification_rejects ADD COLUMN environment text;
ALTER TABLE pix_notification_rejects ADD COLUMN source text NOT NULL DEFAULT 'notification';
CREATE INDEX pix_notification_rejects_recent ON pix_notification_rejects (received_at DESC);
