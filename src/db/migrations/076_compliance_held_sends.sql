-- Money on its way out that a compliance hold stopped at the moment it would leave: a payout or refund
-- (PENDING) or a chain send (QUEUED) claimed while its customer, or the payout account's holder, was on
-- hold. `held_since` set: the claims pass it by, its reserve stays, until the case is decided (cleared:
-- it goes on; confirmed: refused, the reserve released).
ALTER TABLE pix_payouts ADD COLUMN held_since timestamptz;
ALTER TABLE pix_payouts ADD CONSTRAINT pix_payouts_held_pending CHECK (held_since IS NULL OR status = 'PENDING');
ALTER TABLE chain_sends ADD COLUMN held_since timestamptz;
ALTER TABLE chain_sends ADD CONSTRAINT chain_sends_held_queued CHECK (held_since IS NULL OR status = 'QUEUED');
CREATE INDEX pix_payouts_held ON pix_payouts (transaction_id) WHERE held_since IS NOT NULL;
CREATE INDEX chain_sends_held ON chain_sends (transaction_id) WHERE held_since IS NOT NULL;
