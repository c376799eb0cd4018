-- Core of the service: tenants (projects and their API keys), platform staff, and the partner-owned
-- resources of the seed (customers, verifications, limit requests, bank accounts) plus the event outbox.
-- Every partner-owned row carries (project_id, environment); every read filters on both.

CREATE TABLE projects (
  id          uuid PRIMARY KEY,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at  timestamptz NOT NULL
);

CREATE TABLE api_keys (
  id          uuid PRIMARY KEY,
  project_id  uuid NOT NULL REFERENCES projects (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  name        text,
  prefix      text NOT NULL,
  key_hash    text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX api_keys_project ON api_keys (project_id);

CREATE TABLE operators (
  id          uuid PRIMARY KEY,
  name        text NOT NULL,
  token_hash  text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);

CREATE TABLE audit_log (
  id            uuid PRIMARY KEY,
  actor         text NOT NULL,
  action        text NOT NULL,
  resource_type text NOT NULL,
  resource_id   uuid,
  before        jsonb,
  after         jsonb,
  created_at    timestamptz NOT NULL
);
CREATE INDEX audit_log_created ON audit_log (created_at DESC, id DESC);

-- Server-side keys generated on first run (link signing, secret encryption) when none are configured.
CREATE TABLE instance_secrets (
  name        text PRIMARY KEY,
  value       text NOT NULL,
  created_at  timestamptz NOT NULL
);

CREATE TABLE customers (
  id                 uuid PRIMARY KEY,
  project_id         uuid NOT NULL REFERENCES projects (id),
  environment        text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  type               text NOT NULL CHECK (type IN ('INDIVIDUAL', 'BUSINESS')),
  name               text NOT NULL,
  tax_id             text NOT NULL,
  country            char(3) NOT NULL,
  email              text NOT NULL,
  birth_date         date,
  incorporation_date date,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL,
  UNIQUE (project_id, environment, tax_id)
);
CREATE INDEX customers_list ON customers (project_id, environment, created_at DESC, id DESC);

CREATE TABLE verifications (
  id             uuid PRIMARY KEY,
  customer_id    uuid NOT NULL UNIQUE REFERENCES customers (id),
  project_id     uuid NOT NULL REFERENCES projects (id),
  environment    text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  status         text NOT NULL CHECK (status IN
                   ('NOT_STARTED', 'UNDER_VERIFICATION', 'APPROVED', 'TEMPORARY_REJECTION', 'FINAL_REJECTION')),
  level          text NOT NULL CHECK (level IN ('STANDARD')),
  status_reason  jsonb NOT NULL,
  -- sandbox only: when the simulated outcome (chosen by the taxId's last digit) is due
  sandbox_due_at timestamptz,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);
CREATE INDEX verifications_sandbox_due ON verifications (sandbox_due_at) WHERE sandbox_due_at IS NOT NULL;

CREATE TABLE limit_requests (
  id                       uuid PRIMARY KEY,
  customer_id              uuid NOT NULL REFERENCES customers (id),
  project_id               uuid NOT NULL REFERENCES projects (id),
  environment              text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  requested_single         bigint CHECK (requested_single > 0),
  requested_daily          bigint CHECK (requested_daily > 0),
  requested_monthly        bigint CHECK (requested_monthly > 0),
  approved_single          bigint CHECK (approved_single > 0),
  approved_daily           bigint CHECK (approved_daily > 0),
  approved_monthly         bigint CHECK (approved_monthly > 0),
  supporting_document_type text,
  supporting_document_id   uuid,
  status                   text NOT NULL CHECK (status IN ('IN_REVIEW', 'APPROVED', 'PARTIALLY_APPROVED', 'REJECTED')),
  review_comment           text,
  created_at               timestamptz NOT NULL,
  updated_at               timestamptz NOT NULL,
  CHECK (requested_single IS NOT NULL OR requested_daily IS NOT NULL OR requested_monthly IS NOT NULL),
  CHECK (status <> 'IN_REVIEW' OR (approved_single IS NULL AND approved_daily IS NULL
                                    AND approved_monthly IS NULL AND review_comment IS NULL))
);
-- At most one request under review per customer, enforced by the database under any concurrency.
CREATE UNIQUE INDEX limit_requests_one_in_review ON limit_requests (customer_id) WHERE status = 'IN_REVIEW';
CREATE INDEX limit_requests_list ON limit_requests (customer_id, created_at DESC, id DESC);

CREATE TABLE bank_accounts (
  id                          uuid PRIMARY KEY,
  customer_id                 uuid NOT NULL REFERENCES customers (id),
  project_id                  uuid NOT NULL REFERENCES projects (id),
  environment                 text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  name                        text NOT NULL,
  type                        text NOT NULL CHECK (type IN ('EXTERNAL')),
  rail                        text NOT NULL CHECK (rail IN ('PIX')),
  currency                    text NOT NULL CHECK (currency IN ('BRL')),
  key_type                    text NOT NULL CHECK (key_type IN ('CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP')),
  key_value                   text NOT NULL,
  holder_type                 text NOT NULL CHECK (holder_type IN ('INDIVIDUAL', 'BUSINESS')),
  holder_relationship         text NOT NULL CHECK (holder_relationship IN ('SELF', 'THIRD_PARTY')),
  holder_legal_name           text NOT NULL,
  holder_tax_id               text NOT NULL,
  holder_incorporation_date   date,
  holder_email                text NOT NULL,
  holder_address              jsonb NOT NULL,
  holder_verification_status  text NOT NULL,
  holder_verification_level   text NOT NULL,
  created_at                  timestamptz NOT NULL,
  updated_at                  timestamptz NOT NULL,
  deleted_at                  timestamptz
);
CREATE INDEX bank_accounts_list ON bank_accounts (project_id, environment, created_at DESC, id DESC)
  WHERE deleted_at IS NULL;
CREATE INDEX bank_accounts_customer ON bank_accounts (customer_id, created_at DESC, id DESC)
  WHERE deleted_at IS NULL;

-- Transactional outbox: every state change writes its event here in the same transaction.
-- `seq` orders events per resource for delivery.
CREATE TABLE events (
  seq           bigserial PRIMARY KEY,
  id            uuid NOT NULL UNIQUE,
  project_id    uuid NOT NULL REFERENCES projects (id),
  environment   text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  type          text NOT NULL,
  resource_type text NOT NULL,
  resource_id   uuid NOT NULL,
  data          jsonb NOT NULL,
  created_at    timestamptz NOT NULL
);
CREATE INDEX events_resource ON events (resource_id, seq);
CREATE INDEX events_tenant ON events (project_id, environment, seq);
