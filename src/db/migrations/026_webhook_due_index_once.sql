-- The due list was indexed twice: (next_attempt_at) and, since the claim reads it in order,
-- (next_attempt_at, event_seq), both over pending deliveries. The second serves every query of the first;
-- the first only cost a write on every fan-out and on every claim.
DROP INDEX webhook_deliveries_due;
