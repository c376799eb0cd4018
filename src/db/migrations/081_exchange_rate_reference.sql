-- The market reference a quote was priced from: its source (CHAINLINK, PTAX or OPERATOR), the reference
-- mid at scale 10 and when that reference was last updated (null where it is not known, as for the
-- sandbox's default rates and quotes given before references were kept).
ALTER TABLE exchange_rates
  ADD COLUMN reference_source text CHECK (reference_source IN ('CHAINLINK', 'PTAX', 'OPERATOR')),
  ADD COLUMN reference_rate bigint,
  ADD COLUMN reference_at timestamptz;
