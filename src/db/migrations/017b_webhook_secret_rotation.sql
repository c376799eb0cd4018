-- Rotating an endpoint's signing secret: the secret replaced stays (encrypted like the current one,
-- bound to the endpoint) and signs every delivery alongside the new one until its overlap ends, so a
-- partner can switch their verification over without refusing a single delivery. Once the overlap is
-- over the retention job erases the old ciphertext; the time it ended stays (the API shows it).
ALTER TABLE webhook_endpoints
  ADD COLUMN previous_secret_ciphertext text,
  ADD COLUMN previous_secret_expires_at timestamptz,
  ADD CONSTRAINT webhook_endpoints_previous_secret
    CHECK (previous_secret_ciphertext IS NULL OR previous_secret_expires_at IS NOT NULL);
CREATE INDEX webhook_endpoints_retiring_secrets ON webhook_endpoints (previous_secret_expires_at)
  WHERE previous_secret_ciphertext IS NOT NULL;
