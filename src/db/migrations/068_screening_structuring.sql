-- A compliance case also opens for a pattern with no list entry behind it: transfers to one counterparty
-- within 24 hours, each below the Travel Rule threshold, that add up to it (STRUCTURING). The case holds
-- the transfer that completed the sum, as a name match on its beneficiary would.
ALTER TABLE screening_cases DROP CONSTRAINT screening_cases_reason_check;
ALTER TABLE screening_cases ADD CONSTRAINT screening_cases_reason_check
  CHECK (reason IN ('NAME_MATCH', 'ADDRESS_MATCH', 'STRUCTURING'));
