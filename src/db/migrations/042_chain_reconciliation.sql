-- Reconciliation of every watched address's token balance on chain (at its last final block) against
-- what the ledger says arrived there: credited deposits, less those an operator reversed, plus confirmed
-- on-ramp deliveries. A difference is OPEN until a later pass finds none (CLEARED) or an operator resolves
-- it (RESOLVED: the ledger corrected, or the difference accepted with a note); both are audited.
CREATE TABLE chain_balance_differences (
  id             uuid PRIMARY KEY,
  environment    text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  blockchain     text NOT NULL CHECK (blockchain IN ('ETHEREUM', 'POLYGON', 'BASE', 'TRON')),
  address        text NOT NULL,
  currency       text NOT NULL CHECK (currency IN ('USDC', 'USDT')),
  customer_id    uuid NOT NULL,
  project_id     uuid NOT NULL,
  on_chain       numeric(78, 0) NOT NULL,
  ledger         numeric(78, 0) NOT NULL,
  block_number   bigint NOT NULL,
  status         text NOT NULL CHECK (status IN ('OPEN', 'CLEARED', 'RESOLVED')),
  first_seen_at  timestamptz NOT NULL,
  checked_at     timestamptz NOT NULL,
  closed_at      timestamptz,
  resolved_by    text,
  resolution     text,
  CHECK (on_chain <> ledger OR status <> 'OPEN')
);
CREATE UNIQUE INDEX chain_balance_differences_open
  ON chain_balance_differences (environment, blockchain, address, currency) WHERE status = 'OPEN';
CREATE INDEX chain_balance_differences_address
  ON chain_balance_differences (environment, blockchain, address, currency, closed_at);

-- An operator's correction of a credited deposit that the chain no longer holds.
ALTER TABLE ledger_journals DROP CONSTRAINT ledger_journals_kind_check;
ALTER TABLE ledger_journals ADD CONSTRAINT ledger_journals_kind_check CHECK (kind IN (
  'DEPOSIT_RECEIVED', 'FEE', 'CONVERSION', 'STABLECOIN_CREDITED',
  'OFF_RAMP_RESERVED', 'PAYOUT_SENT', 'OFF_RAMP_RELEASED', 'PAYOUT_RETURNED', 'REFUND_RESERVED', 'REFUND_RELEASED',
  'WALLET_TRANSFER', 'CHAIN_SEND', 'CHAIN_SEND_SETTLED', 'CHAIN_SEND_REVERSED', 'CHAIN_DEPOSIT',
  'CHAIN_DEPOSIT_REVERSED'));
