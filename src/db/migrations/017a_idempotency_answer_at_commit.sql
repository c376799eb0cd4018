-- An idempotent request's answer is written inside the transaction of the change it answers, so a
-- process dying between the COMMIT and the answer leaves the answer stored, never a key a retry could
-- run again. The request keeps its lock token on the answered row until it has sent that answer (the
-- token names which request may still correct the stored answer); an answered row is never taken over.
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_check;
ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_in_flight_or_answered
  CHECK ((response_status IS NULL AND lock_token IS NOT NULL AND locked_at IS NOT NULL)
      OR (response_status IS NOT NULL AND response_headers IS NOT NULL AND response_body IS NOT NULL));
