-- A payout the provider accepted but has not reported on is asked about: `check_at` is when it is next
-- asked, `status_checks` how often it has been (the wait doubles, up to an hour).
ALTER TABLE pix_payouts ADD COLUMN check_at timestamptz;
ALTER TABLE pix_payouts ADD COLUMN status_checks integer NOT NULL DEFAULT 0;
UPDATE pix_payouts SET check_at = updated_at + interval '10 minutes' WHERE status = 'SUBMITTED';
ALTER TABLE pix_payouts ADD CONSTRAINT pix_payouts_check_at CHECK ((status = 'SUBMITTED') = (check_at IS NOT NULL));
CREATE INDEX pix_payouts_to_check ON pix_payouts (check_at) WHERE status = 'SUBMITTED';
