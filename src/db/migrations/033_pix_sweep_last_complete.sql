-- What the last complete sweep of each environment covered, for the operator console: the window it read
-- (from, and swept_to to), the PSP calls (listing pages) it made, the items listed and how many it applied.
ALTER TABLE pix_sweeps ADD COLUMN complete_from timestamptz;
ALTER TABLE pix_sweeps ADD COLUMN complete_calls integer;
ALTER TABLE pix_sweeps ADD COLUMN complete_items integer;
ALTER TABLE pix_sweeps ADD COLUMN complete_applied integer;
-- the sends waiting for their result at the PSP, oldest first
CREATE INDEX pix_payouts_awaiting ON pix_payouts (environment, created_at)
  WHERE status = 'SUBMITTED' OR (status = 'PENDING' AND attempts > 0);
CREATE INDEX pix_notification_rejects_environment ON pix_notification_rejects (environment, received_at DESC);
