-- Business customers (KYB): associated parties with their own verifications, terms of service,
-- and documents sent through the API for a verification (PRODUCT.md, "Business customers (KYB), terms
-- and documents through the API").

-- Terms of service. Customers created before terms existed are not asked for them (tos_required false);
-- every customer created from now on is (the column's default).
ALTER TABLE customers ADD COLUMN tos_accepted_at timestamptz;
ALTER TABLE customers ADD COLUMN tos_required boolean NOT NULL DEFAULT false;
ALTER TABLE customers ALTER COLUMN tos_required SET DEFAULT true;

-- The people and companies that own, control or represent a BUSINESS customer. A BUSINESS party may own
-- others (parent_id), forming ownership chains; a deleted party keeps its row (its verification and
-- documents stay on record) but no longer counts.
CREATE TABLE associated_parties (
  id                   uuid PRIMARY KEY,
  customer_id          uuid NOT NULL REFERENCES customers (id),
  project_id           uuid NOT NULL REFERENCES projects (id),
  environment          text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  type                 text NOT NULL CHECK (type IN ('INDIVIDUAL', 'BUSINESS')),
  role                 text NOT NULL CHECK (role IN ('UBO', 'SHAREHOLDER', 'REPRESENTATIVE')),
  name                 text NOT NULL,
  tax_id               text NOT NULL,
  birth_date           date,
  incorporation_date   date,
  email                text NOT NULL,
  address              jsonb NOT NULL,
  ownership_percentage numeric(5, 2) CHECK (ownership_percentage > 0 AND ownership_percentage <= 100),
  parent_id            uuid,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  deleted_at           timestamptz,
  CHECK ((role = 'REPRESENTATIVE') = (ownership_percentage IS NULL)),
  CHECK (parent_id IS NULL OR parent_id <> id),
  UNIQUE (id, customer_id),
  -- a parent is a party of the same customer
  FOREIGN KEY (parent_id, customer_id) REFERENCES associated_parties (id, customer_id)
);
CREATE INDEX associated_parties_customer ON associated_parties (customer_id, created_at DESC, id DESC);

-- A verification belongs to a customer or to one of its associated parties, never both.
ALTER TABLE verifications ALTER COLUMN customer_id DROP NOT NULL;
ALTER TABLE verifications ADD COLUMN associated_party_id uuid UNIQUE REFERENCES associated_parties (id);
ALTER TABLE verifications ADD CONSTRAINT verifications_owner
  CHECK ((customer_id IS NULL) <> (associated_party_id IS NULL));
-- What the reviewing operator decided for the customer's own documents, while the verification waits for
-- its associated parties in UNDER_VERIFICATION (business customers).
ALTER TABLE verifications ADD COLUMN review_approved_at timestamptz;

-- Documents: the identity and company kinds, which side of a card, whose (an associated party's), and
-- documents uploaded through the API that a submission then attaches to a verification.
ALTER TABLE documents DROP CONSTRAINT documents_type_check;
ALTER TABLE documents ADD CONSTRAINT documents_type_check CHECK (type IN ('LIMIT_REQUEST_BANK_STATEMENT',
  'PASSPORT', 'ID_CARD', 'DRIVERS_LICENSE', 'RESIDENCE_PERMIT', 'SELFIE', 'PROOF_OF_ADDRESS',
  'ARTICLES_OF_INCORPORATION', 'SHAREHOLDER_REGISTRY', 'FINANCIAL_STATEMENT'));
ALTER TABLE documents DROP CONSTRAINT documents_check1;
ALTER TABLE documents ADD CONSTRAINT documents_hosted_for_verification
  CHECK (source <> 'HOSTED_PAGE' OR verification_id IS NOT NULL);
ALTER TABLE documents ADD COLUMN side text CHECK (side IN ('FRONT', 'BACK'));
ALTER TABLE documents ADD COLUMN associated_party_id uuid;
ALTER TABLE documents ADD CONSTRAINT documents_party
  FOREIGN KEY (associated_party_id, customer_id) REFERENCES associated_parties (id, customer_id);
-- API documents waiting for their owner's next submission
CREATE INDEX documents_pending ON documents (customer_id, associated_party_id)
  WHERE verification_id IS NULL AND source = 'API';

-- Single-use links to the hosted terms page. Only the token's hash is kept.
CREATE TABLE tos_links (
  id           uuid PRIMARY KEY,
  customer_id  uuid NOT NULL REFERENCES customers (id),
  token_sha256 text NOT NULL UNIQUE,
  redirect_url text,
  expires_at   timestamptz NOT NULL,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL
);
