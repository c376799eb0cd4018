-- Wallets and stablecoin transfers: one wallet per customer and blockchain, derived from an HD seed kept
-- encrypted per environment; stablecoin transfers and on-chain deposits as transactions of their own;
-- the outbound send queue (one sender per address, nonces unique); the deposit watcher's cursor and
-- the deposits it saw; and the ledger's per-chain wallet accounts.

-- One HD seed per environment, AES-256-GCM under the instance encryption key.
CREATE TABLE wallet_seeds (
  environment  text PRIMARY KEY CHECK (environment IN ('sandbox', 'production')),
  ciphertext   text NOT NULL,
  created_at   timestamptz NOT NULL
);

-- Address index of each customer under the seed (index 0 is the platform's treasury).
CREATE SEQUENCE wallet_hd_index START 1;

CREATE TABLE wallets (
  id            uuid PRIMARY KEY,
  customer_id   uuid NOT NULL REFERENCES customers (id),
  project_id    uuid NOT NULL REFERENCES projects (id),
  environment   text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  blockchain    text NOT NULL CHECK (blockchain IN ('ETHEREUM', 'POLYGON', 'BASE', 'TRON')),
  address       text NOT NULL,
  hd_index      integer NOT NULL CHECK (hd_index > 0),
  created_at    timestamptz NOT NULL,
  UNIQUE (customer_id, blockchain),
  UNIQUE (environment, blockchain, address)
);
-- EVM addresses are matched without regard to case (checksums are presentation).
CREATE UNIQUE INDEX wallets_address_ci ON wallets (environment, blockchain, lower(address));

-- Stablecoin transfers (TRANSFER) and inbound on-chain deposits (DEPOSIT). `customer_id` owns the
-- transaction: the sender of a transfer, the receiver of a deposit.
CREATE TABLE chain_transactions (
  id                        uuid PRIMARY KEY,
  customer_id               uuid NOT NULL REFERENCES customers (id),
  project_id                uuid NOT NULL REFERENCES projects (id),
  environment               text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  type                      text NOT NULL CHECK (type IN ('TRANSFER', 'DEPOSIT')),
  status                    text NOT NULL CHECK (status IN ('PROCESSING', 'SUCCESS', 'FAILED')),
  currency                  text NOT NULL CHECK (currency IN ('USDC', 'USDT')),
  amount                    bigint NOT NULL CHECK (amount > 0),
  blockchain                text NOT NULL CHECK (blockchain IN ('ETHEREUM', 'POLYGON', 'BASE', 'TRON')),
  to_customer_id            uuid REFERENCES customers (id),
  from_address              text,
  to_address                text,
  transaction_hash          text,
  failure_reason            text,
  metadata                  jsonb,
  timeline                  jsonb NOT NULL,
  created_at                timestamptz NOT NULL,
  updated_at                timestamptz NOT NULL,
  CHECK ((status = 'FAILED') = (failure_reason IS NOT NULL)),
  CHECK (type = 'DEPOSIT' OR (to_customer_id IS NULL) <> (to_address IS NULL))
);
CREATE INDEX chain_transactions_list ON chain_transactions (project_id, environment, created_at DESC, id DESC);
CREATE INDEX chain_transactions_customer ON chain_transactions (customer_id, created_at DESC, id DESC);
CREATE INDEX chain_transactions_recipient ON chain_transactions (to_customer_id) WHERE to_customer_id IS NOT NULL;

-- On-ramps name the chain they deliver to, and carry the delivery's hash once it is known.
ALTER TABLE transactions ADD COLUMN blockchain text
  CHECK (blockchain IN ('ETHEREUM', 'POLYGON', 'BASE', 'TRON'));
ALTER TABLE transactions ADD COLUMN chain_send_id uuid;
ALTER TABLE transactions ADD COLUMN transaction_hash text;
ALTER TABLE transactions ADD COLUMN block_explorer_url text;

-- Outbound token transfers. EVM sends are QUEUED, then signed with the next nonce of their sending
-- address (SUBMITTED, the signed bytes kept so a rebroadcast sends the very same transaction), then
-- CONFIRMED or FAILED. A simulated chain's sends start SUBMITTED.
CREATE TABLE chain_sends (
  id                uuid PRIMARY KEY,
  environment       text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  blockchain        text NOT NULL CHECK (blockchain IN ('ETHEREUM', 'POLYGON', 'BASE', 'TRON')),
  purpose           text NOT NULL CHECK (purpose IN ('ON_RAMP', 'TRANSFER')),
  transaction_id    uuid NOT NULL,
  from_address      text NOT NULL,
  signer_index      integer NOT NULL CHECK (signer_index >= 0),
  to_address        text NOT NULL,
  currency          text NOT NULL CHECK (currency IN ('USDC', 'USDT')),
  amount            bigint NOT NULL CHECK (amount > 0),
  status            text NOT NULL CHECK (status IN ('QUEUED', 'SUBMITTED', 'CONFIRMED', 'FAILED')),
  nonce             bigint,
  transaction_hash  text,
  raw_transaction   text,
  submitted_at      timestamptz,
  failure_reason    text,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  UNIQUE (purpose, transaction_id),
  CHECK (status = 'QUEUED' OR transaction_hash IS NOT NULL OR status = 'FAILED')
);
-- Two sends from one address never share a nonce.
CREATE UNIQUE INDEX chain_sends_nonce ON chain_sends (environment, blockchain, from_address, nonce)
  WHERE nonce IS NOT NULL;
CREATE INDEX chain_sends_queued ON chain_sends (environment, blockchain, from_address, created_at)
  WHERE status = 'QUEUED';
CREATE INDEX chain_sends_submitted ON chain_sends (updated_at) WHERE status = 'SUBMITTED';
CREATE INDEX chain_sends_hash ON chain_sends (blockchain, transaction_hash);

-- One sender per address: the row a signer locks (SKIP LOCKED) while it hands out nonces.
CREATE TABLE chain_senders (
  environment  text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  blockchain   text NOT NULL CHECK (blockchain IN ('ETHEREUM', 'POLYGON', 'BASE', 'TRON')),
  address      text NOT NULL,
  next_nonce   bigint,
  PRIMARY KEY (environment, blockchain, address)
);

-- The deposit watcher: every block up to `final_block` has been scanned with its confirmations met.
CREATE TABLE chain_cursors (
  environment  text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  blockchain   text NOT NULL CHECK (blockchain IN ('ETHEREUM', 'POLYGON', 'BASE', 'TRON')),
  final_block  bigint NOT NULL,
  updated_at   timestamptz NOT NULL,
  PRIMARY KEY (environment, blockchain)
);

-- Every inbound token transfer seen, once per log in its block: a log that a reorganisation moves
-- into another block is another row, and only a log still in the canonical chain at N confirmations
-- is credited.
CREATE TABLE chain_deposits (
  environment     text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  blockchain      text NOT NULL CHECK (blockchain IN ('ETHEREUM', 'POLYGON', 'BASE', 'TRON')),
  transaction_hash text NOT NULL,
  log_index       integer NOT NULL,
  block_hash      text NOT NULL,
  block_number    bigint,
  transaction_id  uuid NOT NULL REFERENCES chain_transactions (id),
  seen_at         timestamptz NOT NULL,
  PRIMARY KEY (environment, blockchain, transaction_hash, log_index, block_hash)
);
CREATE INDEX chain_deposits_transaction ON chain_deposits (transaction_id);

-- The ledger: journals of transfers and deposits, per-chain customer wallets, the platform's on-chain
-- holdings and what is on its way out.
ALTER TABLE ledger_journals DROP CONSTRAINT ledger_journals_kind_check;
ALTER TABLE ledger_journals ADD CONSTRAINT ledger_journals_kind_check CHECK (kind IN (
  'DEPOSIT_RECEIVED', 'FEE', 'CONVERSION', 'STABLECOIN_CREDITED',
  'OFF_RAMP_RESERVED', 'PAYOUT_SENT', 'OFF_RAMP_RELEASED', 'PAYOUT_RETURNED', 'REFUND_RESERVED', 'REFUND_RELEASED',
  'WALLET_TRANSFER', 'CHAIN_SEND', 'CHAIN_SEND_SETTLED', 'CHAIN_SEND_REVERSED', 'CHAIN_DEPOSIT'));
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_account_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_account_check CHECK (account IN (
  'PIX_SETTLEMENT', 'CUSTOMER_FIAT', 'FEE_REVENUE', 'PARTNER_FEE_REVENUE', 'CONVERSION_DESK',
  'STABLECOIN_IN_TRANSIT', 'CUSTOMER_WALLET', 'OFF_RAMP_RESERVE', 'PAYOUT_IN_TRANSIT',
  'CHAIN_HOLDINGS', 'CHAIN_OUTBOUND'));
ALTER TABLE ledger_entries ADD COLUMN blockchain text
  CHECK (blockchain IN ('ETHEREUM', 'POLYGON', 'BASE', 'TRON'));
-- Wallet entries name their chain from now on (earlier ones count on the default chain).
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_wallet_chain
  CHECK (account <> 'CUSTOMER_WALLET' OR blockchain IS NOT NULL) NOT VALID;
CREATE INDEX ledger_entries_wallet ON ledger_entries (customer_id, blockchain, currency)
  WHERE account = 'CUSTOMER_WALLET';
