-- Webhooks: partner endpoints, one delivery per (endpoint, event), and every attempt made for it.
-- Events reach endpoints through a fan-out step that marks each outbox event once it has been turned
-- into deliveries; dispatchers on several processes claim due deliveries with FOR UPDATE SKIP LOCKED.

CREATE TABLE webhook_endpoints (
  id                uuid PRIMARY KEY,
  project_id        uuid NOT NULL REFERENCES projects (id),
  environment       text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  url               text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
  -- NULL: every event type, including types added later
  event_types       text[] CHECK (event_types IS NULL OR cardinality(event_types) > 0),
  -- AES-256-GCM ciphertext of the signing secret, readable only with the instance encryption key
  secret_ciphertext text NOT NULL,
  status            text NOT NULL CHECK (status IN ('ENABLED', 'DISABLED')),
  disabled_reason   text,
  -- first failed attempt since the last successful delivery; NULL while the endpoint is healthy
  failing_since     timestamptz,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  deleted_at        timestamptz,
  CHECK ((status = 'DISABLED') = (disabled_reason IS NOT NULL))
);
CREATE INDEX webhook_endpoints_list ON webhook_endpoints (project_id, environment, created_at DESC, id DESC)
  WHERE deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
  id              uuid PRIMARY KEY,
  endpoint_id     uuid NOT NULL REFERENCES webhook_endpoints (id),
  project_id      uuid NOT NULL REFERENCES projects (id),
  environment     text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  event_id        uuid NOT NULL REFERENCES events (id),
  -- copied from the event: deliveries of one resource to one endpoint go out in this order
  event_seq       bigint NOT NULL,
  resource_id     uuid NOT NULL,
  status          text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
  attempt_count   integer NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
  next_attempt_at timestamptz,
  -- retried until then; a failed attempt at or after it ends the delivery as FAILED
  retry_until     timestamptz NOT NULL,
  -- set while a dispatcher holds the delivery; its result is recorded only under the same token
  claim_token     uuid,
  -- a partner asked for this attempt: it goes out even if the endpoint is disabled
  manual          boolean NOT NULL DEFAULT false,
  last_error      text,
  created_at      timestamptz NOT NULL,
  updated_at      timestamptz NOT NULL,
  UNIQUE (endpoint_id, event_id),
  CHECK ((status = 'PENDING') = (next_attempt_at IS NOT NULL))
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'PENDING';
CREATE INDEX webhook_deliveries_chain ON webhook_deliveries (endpoint_id, resource_id, event_seq)
  WHERE status = 'PENDING';
CREATE INDEX webhook_deliveries_list ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);

CREATE TABLE webhook_attempts (
  id           uuid PRIMARY KEY,
  delivery_id  uuid NOT NULL REFERENCES webhook_deliveries (id),
  attempted_at timestamptz NOT NULL,
  status_code  integer,
  latency_ms   integer NOT NULL CHECK (latency_ms >= 0),
  error        text
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempted_at, id);

-- When the event was turned into deliveries; NULL means the fan-out has not seen it yet.
ALTER TABLE events ADD COLUMN dispatched_at timestamptz;
CREATE INDEX events_undispatched ON events (seq) WHERE dispatched_at IS NULL;
