-- How far the sweep of the US bank's inbound transfers has got, per bank and environment: every transfer
-- created before `swept_through` was read back and applied (or found applied), so the next sweep reads
-- from there (less an overlap for transfers the bank lists late).
CREATE TABLE bank_sweeps (
  bank           text NOT NULL CHECK (bank IN ('INCREASE')),
  environment    text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  swept_through  timestamptz NOT NULL,
  swept_at       timestamptz NOT NULL,
  PRIMARY KEY (bank, environment)
);
