-- The market reference a conversion was priced from, kept on the transaction for its receipt: its source
-- (CHAINLINK, PTAX or OPERATOR), the reference mid at scale 10 and when that reference was last updated.
-- A transaction that used a LOCKED quote keeps the quote's; one priced without a quote keeps the reference
-- read when its rate was fixed. Null on transactions priced before references were kept.
ALTER TABLE transactions
  ADD COLUMN reference_source text CHECK (reference_source IN ('CHAINLINK', 'PTAX', 'OPERATOR')),
  ADD COLUMN reference_rate bigint,
  ADD COLUMN reference_at timestamptz;
