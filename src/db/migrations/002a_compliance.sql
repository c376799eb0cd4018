-- Compliance: documents uploaded by partners (limit-request evidence) and by end customers on the
-- hosted verification page (identity document, selfie). The bytes live in the database so that every
-- process serves them; the size and content type were checked by content before they were stored.

CREATE TABLE documents (
  id              uuid PRIMARY KEY,
  customer_id     uuid NOT NULL REFERENCES customers (id),
  project_id      uuid NOT NULL REFERENCES projects (id),
  environment     text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  -- API: uploaded by the partner; HOSTED_PAGE: uploaded by the end customer for a verification
  source          text NOT NULL CHECK (source IN ('API', 'HOSTED_PAGE')),
  verification_id uuid REFERENCES verifications (id),
  type            text NOT NULL CHECK (type IN
                    ('LIMIT_REQUEST_BANK_STATEMENT', 'PASSPORT', 'ID_CARD', 'DRIVERS_LICENSE', 'SELFIE')),
  file_name       text NOT NULL CHECK (length(file_name) BETWEEN 1 AND 255),
  content_type    text NOT NULL CHECK (content_type IN ('application/pdf', 'image/jpeg', 'image/png')),
  size            integer NOT NULL CHECK (size BETWEEN 1 AND 3145728),
  sha256          text NOT NULL,
  content         bytea NOT NULL,
  created_at      timestamptz NOT NULL,
  CHECK (octet_length(content) = size),
  CHECK ((source = 'HOSTED_PAGE') = (verification_id IS NOT NULL)),
  -- lets other tables require "a document of this customer" with a foreign key
  UNIQUE (id, customer_id)
);
CREATE INDEX documents_customer ON documents (customer_id, created_at DESC, id DESC);
CREATE INDEX documents_verification ON documents (verification_id, created_at DESC)
  WHERE verification_id IS NOT NULL;

-- A limit request's supporting document is a document of the same customer (hence of the same project
-- and environment), whatever the service checked before.
ALTER TABLE limit_requests
  ADD CONSTRAINT limit_requests_supporting_document_of_customer
  FOREIGN KEY (supporting_document_id, customer_id) REFERENCES documents (id, customer_id);

-- Review queues, oldest first.
CREATE INDEX verifications_queue ON verifications (status, updated_at, id);
CREATE INDEX limit_requests_queue ON limit_requests (status, created_at, id);
CREATE INDEX bank_accounts_holder_queue ON bank_accounts (holder_verification_status, created_at, id)
  WHERE deleted_at IS NULL;

-- The operators' audit log, filtered by resource.
CREATE INDEX audit_log_resource ON audit_log (resource_type, resource_id, created_at DESC);
