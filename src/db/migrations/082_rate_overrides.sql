-- Operator overrides of the market reference: where quotes are priced from the feeds, a rate the operator
-- sets replaces the reference mid of its pair until `expires_at` (null: a rate of an environment priced
-- from the operator's rates, in force until replaced). `forced` marks one set outside the band around the
-- reference, with the operator's `reason`.
ALTER TABLE conversion_rates
  ADD COLUMN expires_at timestamptz,
  ADD COLUMN forced boolean NOT NULL DEFAULT false,
  ADD COLUMN reason text,
  ADD CONSTRAINT conversion_rates_forced_reason CHECK (NOT forced OR (reason IS NOT NULL AND reason <> ''));
