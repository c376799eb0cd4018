-- Idempotency keys of the public API (PRODUCT.md, "Common rules"). A key is scoped to one project,
-- environment, method and route, and lives 24 hours. While the first request runs, the row holds a
-- lock token; once it has answered, the row holds that answer (encrypted: it may carry personal data
-- or a secret shown once) and replays it to every retry with the same request fingerprint.

CREATE TABLE idempotency_keys (
  project_id       uuid NOT NULL REFERENCES projects (id),
  environment      text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  method           text NOT NULL,
  route            text NOT NULL,
  key              text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  -- SHA-256 of method, path and canonical body: the same key with another request is refused
  fingerprint      text NOT NULL,
  lock_token       uuid,
  locked_at        timestamptz,
  response_status  integer CHECK (response_status BETWEEN 200 AND 499),
  response_headers jsonb,
  response_body    text,
  created_at       timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL,
  PRIMARY KEY (project_id, environment, method, route, key),
  -- exactly one of: in flight (locked) or answered
  CHECK ((lock_token IS NOT NULL AND locked_at IS NOT NULL AND response_status IS NULL)
      OR (lock_token IS NULL AND response_status IS NOT NULL AND response_headers IS NOT NULL
          AND response_body IS NOT NULL))
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
