-- Dollars in: an ACH credit or a wire to a customer's account number becomes an on-ramp in USD over the
-- rail it came by (no PIX charge: it was paid to a standing account number, not to a charge).
ALTER TABLE transactions DROP CONSTRAINT transactions_currency_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_currency_check
  CHECK (currency IN ('BRL', 'USD', 'USDC', 'USDT'));
ALTER TABLE transactions DROP CONSTRAINT transactions_rail_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_rail_check CHECK (rail IN ('PIX', 'ACH', 'WIRE'));
-- a PIX on-ramp carries its charge; a dollar on-ramp names the customer account it was paid into
ALTER TABLE transactions ADD COLUMN customer_account_id uuid REFERENCES customer_accounts (id);
ALTER TABLE transactions DROP CONSTRAINT transactions_onramp_charge;
ALTER TABLE transactions ADD CONSTRAINT transactions_onramp_charge CHECK (type <> 'ON_RAMP' OR (
  CASE WHEN rail = 'PIX'
    THEN pix_txid IS NOT NULL AND br_code IS NOT NULL AND expires_at IS NOT NULL
    ELSE currency = 'USD' AND customer_account_id IS NOT NULL AND deposit_amount IS NOT NULL
  END));

-- USD that arrived in Ponte's account at the US bank, beside the BRL of its PIX account
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_account_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_account_check CHECK (account IN (
  'PIX_SETTLEMENT', 'BANK_SETTLEMENT', 'CUSTOMER_FIAT', 'FEE_REVENUE', 'PARTNER_FEE_REVENUE',
  'CONVERSION_DESK', 'STABLECOIN_IN_TRANSIT', 'CUSTOMER_WALLET', 'OFF_RAMP_RESERVE', 'PAYOUT_IN_TRANSIT',
  'CHAIN_HOLDINGS', 'CHAIN_OUTBOUND'));
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_currency_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_currency_check
  CHECK (currency IN ('BRL', 'USD', 'USDC', 'USDT'));

-- Every inbound transfer Ponte has learnt of (by webhook, sweep or the sandbox), recorded once by the
-- bank's id whichever way it came, with what Ponte did with it: APPLIED (an on-ramp), HELD (an on-ramp
-- held uncredited while its customer is on compliance hold) or RETURNED (given back, with why).
CREATE TABLE inbound_bank_transfers (
  bank               text NOT NULL CHECK (bank IN ('INCREASE', 'SANDBOX')),
  bank_transfer_id   text NOT NULL,
  environment        text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  rail               text NOT NULL CHECK (rail IN ('ACH', 'WIRE')),
  account_id         uuid REFERENCES customer_accounts (id),
  transaction_id     uuid REFERENCES transactions (id),
  amount             bigint NOT NULL CHECK (amount > 0),
  outcome            text NOT NULL CHECK (outcome IN ('APPLIED', 'HELD', 'RETURNED')),
  return_reason      text,
  -- RETURNED: whether the bank has been told (a return or reversal it accepted)
  returned_at        timestamptz,
  originator_name    text,
  payload            jsonb NOT NULL,
  received_at        timestamptz NOT NULL,
  PRIMARY KEY (bank, bank_transfer_id),
  CHECK ((outcome = 'RETURNED') = (return_reason IS NOT NULL)),
  CHECK (outcome = 'RETURNED' OR transaction_id IS NOT NULL)
);
CREATE INDEX inbound_bank_transfers_unreturned ON inbound_bank_transfers (received_at)
  WHERE outcome = 'RETURNED' AND returned_at IS NULL;
