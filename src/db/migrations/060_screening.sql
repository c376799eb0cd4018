-- Sanctions screening: list versions imported from the published files (OFAC SDN CSV, UN consolidated
-- XML), their entries, names, dates of birth, countries and chain addresses; the review cases a possible
-- match opens (a subject on hold until an operator clears or confirms it); the re-screening runs a new
-- version starts; Travel Rule data on chain transactions.

-- One import of one source. The newest version of each source is the one in force; older versions stay
-- for the cases that cite them.
CREATE TABLE screening_list_versions (
  id            uuid PRIMARY KEY,
  source        text NOT NULL CHECK (source IN ('OFAC_SDN', 'UN')),
  -- the publication date or generation time the file states (UN: dateGenerated), when it states one
  published_at  timestamptz,
  -- SHA-256 of the imported files, so that importing the same files twice is visible
  digest        text NOT NULL,
  entries       integer NOT NULL CHECK (entries >= 0),
  names         integer NOT NULL CHECK (names >= 0),
  addresses     integer NOT NULL CHECK (addresses >= 0),
  in_force      boolean NOT NULL,
  imported_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX screening_list_versions_in_force ON screening_list_versions (source) WHERE in_force;

CREATE TABLE screening_entries (
  id            uuid PRIMARY KEY,
  version_id    uuid NOT NULL REFERENCES screening_list_versions (id) ON DELETE CASCADE,
  -- the list's own identifier: OFAC ent_num, UN REFERENCE_NUMBER (or DATAID)
  source_uid    text NOT NULL,
  kind          text NOT NULL CHECK (kind IN ('INDIVIDUAL', 'ENTITY', 'VESSEL', 'AIRCRAFT')),
  primary_name  text NOT NULL,
  programs      text[] NOT NULL,
  -- ISO 3166-1 alpha-3 codes of nationalities, citizenships and address countries, where known
  countries     text[] NOT NULL,
  -- dates of birth as the list gives them: YYYY-MM-DD, YYYY-MM or YYYY
  birth_dates   text[] NOT NULL,
  remarks       text,
  details       jsonb NOT NULL,
  UNIQUE (version_id, source_uid)
);

-- Every name of an entry (its primary name and each alias), with its normalised form.
CREATE TABLE screening_names (
  entry_id      uuid NOT NULL REFERENCES screening_entries (id) ON DELETE CASCADE,
  version_id    uuid NOT NULL REFERENCES screening_list_versions (id) ON DELETE CASCADE,
  name          text NOT NULL,
  normalized    text NOT NULL,
  alias         boolean NOT NULL,
  alias_quality text
);
CREATE INDEX screening_names_version ON screening_names (version_id);
CREATE INDEX screening_names_entry ON screening_names (entry_id);

-- Chain addresses named by an entry ("Digital Currency Address - ETH 0x..."). `address_key` is the form
-- compared: lower case on EVM chains, as written (base58 is case-sensitive) elsewhere.
CREATE TABLE screening_addresses (
  entry_id      uuid NOT NULL REFERENCES screening_entries (id) ON DELETE CASCADE,
  version_id    uuid NOT NULL REFERENCES screening_list_versions (id) ON DELETE CASCADE,
  currency      text NOT NULL,
  address       text NOT NULL,
  address_key   text NOT NULL
);
CREATE INDEX screening_addresses_key ON screening_addresses (address_key, version_id);

-- A possible match under review. The subject is held (its money movements refused) while a case is OPEN.
-- `customer_id` is the customer whose movements the hold concerns; `subject_id` the customer, bank
-- account, associated party or transaction screened.
CREATE TABLE screening_cases (
  id            uuid PRIMARY KEY,
  project_id    uuid NOT NULL REFERENCES projects (id),
  environment   text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  subject_type  text NOT NULL CHECK (subject_type IN ('CUSTOMER', 'BANK_ACCOUNT_HOLDER', 'ASSOCIATED_PARTY',
                                                      'TRANSFER', 'DEPOSIT')),
  subject_id    uuid NOT NULL,
  customer_id   uuid NOT NULL REFERENCES customers (id),
  reason        text NOT NULL CHECK (reason IN ('NAME_MATCH', 'ADDRESS_MATCH')),
  -- what was screened (name, date of birth, country, or the address) and the matches found
  screened      jsonb NOT NULL,
  matches       jsonb NOT NULL,
  score         numeric(5, 4) NOT NULL,
  status        text NOT NULL CHECK (status IN ('OPEN', 'CLEARED', 'CONFIRMED')),
  decided_by    text,
  decision_comment text,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  decided_at    timestamptz,
  CHECK ((status = 'OPEN') = (decided_at IS NULL))
);
-- One open case per subject: a re-screen updates it rather than opening another.
CREATE UNIQUE INDEX screening_cases_open ON screening_cases (subject_type, subject_id) WHERE status = 'OPEN';
CREATE INDEX screening_cases_customer_open ON screening_cases (customer_id) WHERE status = 'OPEN';
CREATE INDEX screening_cases_queue ON screening_cases (status, created_at, id);
CREATE INDEX screening_cases_subject ON screening_cases (subject_id, created_at DESC);

-- A match an operator cleared: the same subject, name and list entry are not held again.
CREATE TABLE screening_clearances (
  subject_type  text NOT NULL,
  subject_id    uuid NOT NULL,
  source        text NOT NULL,
  source_uid    text NOT NULL,
  screened_name text NOT NULL,
  case_id       uuid NOT NULL REFERENCES screening_cases (id),
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (subject_type, subject_id, source, source_uid, screened_name)
);

-- Re-screening every subject after a new version: claimed with SKIP LOCKED, resumed from its cursor.
CREATE TABLE screening_runs (
  id            uuid PRIMARY KEY,
  version_id    uuid NOT NULL REFERENCES screening_list_versions (id),
  status        text NOT NULL CHECK (status IN ('PENDING', 'DONE')),
  -- the subject type being walked and the last id done in it
  subject_type  text,
  cursor_id     uuid,
  screened      bigint NOT NULL DEFAULT 0,
  held          bigint NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL,
  finished_at   timestamptz
);
CREATE INDEX screening_runs_pending ON screening_runs (created_at) WHERE status = 'PENDING';

-- Travel Rule (IVMS101) data of a transfer or deposit; deposits at or above the threshold wait for the
-- originator's data in AWAITING_TRAVEL_RULE. `credit_due` marks a held deposit whose confirmations the
-- chain has already met, to be credited the moment it is released.
ALTER TABLE chain_transactions ADD COLUMN travel_rule jsonb;
ALTER TABLE chain_transactions ADD COLUMN credit_due boolean NOT NULL DEFAULT false;
ALTER TABLE chain_transactions DROP CONSTRAINT chain_transactions_status_check;
ALTER TABLE chain_transactions ADD CONSTRAINT chain_transactions_status_check
  CHECK (status IN ('PROCESSING', 'AWAITING_TRAVEL_RULE', 'SUCCESS', 'FAILED'));
CREATE INDEX chain_transactions_awaiting_travel_rule ON chain_transactions (created_at)
  WHERE status = 'AWAITING_TRAVEL_RULE';
