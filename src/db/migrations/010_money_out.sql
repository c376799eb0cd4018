-- Money out: exchange-rate quotes (LOCKED ones single-use), partner fees, off-ramps to PIX bank accounts,
-- refunds of held deposits and returned payouts, and the PIX payouts the rail carries for them.
-- Amounts are bigint units at the currency's scale (BRL 2, USDC/USDT 6); rates at scale 10.

-- Market rates in both directions: BRL/USDC is USDC per BRL, USDC/BRL is BRL per USDC.
ALTER TABLE conversion_rates DROP CONSTRAINT conversion_rates_pair_check;
ALTER TABLE conversion_rates ADD CONSTRAINT conversion_rates_pair_check
  CHECK (pair IN ('BRL/USDC', 'BRL/USDT', 'USDC/BRL', 'USDT/BRL'));

-- A partner's own fee per transaction type, charged on top of the platform's and booked to its revenue.
CREATE TABLE partner_fees (
  project_id        uuid NOT NULL REFERENCES projects (id),
  transaction_type  text NOT NULL CHECK (transaction_type IN ('ON_RAMP', 'OFF_RAMP')),
  basis_points      integer NOT NULL CHECK (basis_points BETWEEN 0 AND 10000),
  -- BRL cents; for a stablecoin source converted at the rate of the transaction
  flat              bigint NOT NULL CHECK (flat >= 0),
  set_by            text NOT NULL,
  updated_at        timestamptz NOT NULL,
  PRIMARY KEY (project_id, transaction_type)
);

-- Quotes. A LOCKED one guarantees its figures until expires_at to the one transaction that names it.
CREATE TABLE exchange_rates (
  id                 uuid PRIMARY KEY,
  project_id         uuid NOT NULL REFERENCES projects (id),
  environment        text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  type               text NOT NULL CHECK (type IN ('FLOATING', 'LOCKED')),
  source_currency    text NOT NULL CHECK (source_currency IN ('BRL', 'USDC', 'USDT')),
  target_currency    text NOT NULL CHECK (target_currency IN ('BRL', 'USDC', 'USDT')),
  source_amount      bigint NOT NULL CHECK (source_amount > 0),
  target_amount      bigint NOT NULL CHECK (target_amount > 0),
  base_rate          bigint NOT NULL CHECK (base_rate > 0),
  platform_fee       bigint NOT NULL CHECK (platform_fee >= 0),
  partner_fee        bigint NOT NULL CHECK (partner_fee >= 0),
  -- the source amount's value in BRL, what a transaction settled at this quote counts against limits
  limit_amount_brl   bigint NOT NULL CHECK (limit_amount_brl > 0),
  expires_at         timestamptz,
  used_at            timestamptz,
  created_at         timestamptz NOT NULL,
  CHECK (source_currency <> target_currency AND (source_currency = 'BRL' OR target_currency = 'BRL')),
  CHECK ((type = 'LOCKED') = (expires_at IS NOT NULL)),
  CHECK (type = 'LOCKED' OR used_at IS NULL),
  CHECK (platform_fee + partner_fee < source_amount)
);

-- Transactions of both directions.
ALTER TABLE transactions DROP CONSTRAINT transactions_type_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_type_check CHECK (type IN ('ON_RAMP', 'OFF_RAMP'));
ALTER TABLE transactions DROP CONSTRAINT transactions_status_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_status_check CHECK (status IN ('AWAITING_FUNDS',
  'TRANSFERRING_FIAT', 'TRADING', 'TRANSFERRING_STABLECOIN', 'SUCCESS', 'FAILED', 'EXPIRED', 'RETURNED'));
ALTER TABLE transactions DROP CONSTRAINT transactions_currency_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_currency_check CHECK (currency IN ('BRL', 'USDC', 'USDT'));
ALTER TABLE transactions DROP CONSTRAINT transactions_target_currency_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_target_currency_check
  CHECK (target_currency IN ('BRL', 'USDC', 'USDT'));
-- "funded transactions carry their deposit" holds for on-ramps only
ALTER TABLE transactions DROP CONSTRAINT transactions_check3;
ALTER TABLE transactions ADD CONSTRAINT transactions_onramp_deposit
  CHECK (type <> 'ON_RAMP' OR status IN ('AWAITING_FUNDS', 'EXPIRED') OR deposit_amount IS NOT NULL);

ALTER TABLE transactions ALTER COLUMN pix_txid DROP NOT NULL;
ALTER TABLE transactions ALTER COLUMN br_code DROP NOT NULL;
ALTER TABLE transactions ALTER COLUMN expires_at DROP NOT NULL;
ALTER TABLE transactions ADD CONSTRAINT transactions_onramp_charge
  CHECK (type <> 'ON_RAMP' OR (pix_txid IS NOT NULL AND br_code IS NOT NULL AND expires_at IS NOT NULL));

ALTER TABLE transactions
  -- the transaction's value in BRL: what it counts against the customer's limits, for every type
  ADD COLUMN limit_amount_brl bigint,
  ADD COLUMN platform_fee bigint CHECK (platform_fee >= 0),
  ADD COLUMN partner_fee bigint CHECK (partner_fee >= 0),
  ADD COLUMN fee_minimum bigint NOT NULL DEFAULT 0 CHECK (fee_minimum >= 0),
  ADD COLUMN partner_fee_basis_points integer NOT NULL DEFAULT 0
    CHECK (partner_fee_basis_points BETWEEN 0 AND 10000),
  ADD COLUMN partner_fee_flat bigint NOT NULL DEFAULT 0 CHECK (partner_fee_flat >= 0),
  ADD COLUMN exchange_rate_id uuid UNIQUE REFERENCES exchange_rates (id),
  ADD COLUMN bank_account_id uuid REFERENCES bank_accounts (id),
  ADD COLUMN purpose text,
  ADD COLUMN memo text,
  ADD COLUMN metadata jsonb,
  ADD COLUMN end_to_end_id text UNIQUE,
  ADD COLUMN return_reason text,
  -- ON_RAMP: the refund of its held deposits, summarised from its REFUND payouts
  ADD COLUMN refund_status text CHECK (refund_status IN ('PENDING', 'SUCCESS', 'FAILED')),
  ADD COLUMN refund_amount bigint CHECK (refund_amount > 0),
  ADD COLUMN refund_failure_reason text,
  ADD COLUMN refund_updated_at timestamptz;

UPDATE transactions SET limit_amount_brl = amount;
UPDATE transactions SET platform_fee = fee, partner_fee = 0 WHERE fee IS NOT NULL;
ALTER TABLE transactions ALTER COLUMN limit_amount_brl SET NOT NULL;
ALTER TABLE transactions ADD CONSTRAINT transactions_limit_amount_positive CHECK (limit_amount_brl > 0);
ALTER TABLE transactions ADD CONSTRAINT transactions_fee_parts
  CHECK ((fee IS NULL) = (platform_fee IS NULL) AND (fee IS NULL) = (partner_fee IS NULL)
         AND (fee IS NULL OR fee = platform_fee + partner_fee));
ALTER TABLE transactions ADD CONSTRAINT transactions_offramp_fields
  CHECK (type <> 'OFF_RAMP' OR (bank_account_id IS NOT NULL AND purpose IS NOT NULL AND rate IS NOT NULL
                                AND target_currency = 'BRL'));
ALTER TABLE transactions ADD CONSTRAINT transactions_returned
  CHECK ((status = 'RETURNED') = (return_reason IS NOT NULL));

CREATE INDEX transactions_usage ON transactions (customer_id, created_at)
  INCLUDE (limit_amount_brl, status);
-- What settlement claims: an off-ramp in TRANSFERRING_FIAT waits for its payout's result instead, and
-- however many wait, the claim never walks past them.
CREATE INDEX transactions_settlement_due ON transactions (updated_at)
  WHERE status IN ('TRANSFERRING_FIAT', 'TRADING', 'TRANSFERRING_STABLECOIN')
    AND NOT (type = 'OFF_RAMP' AND status = 'TRANSFERRING_FIAT');

-- Every PIX payment the platform sends: an off-ramp's payout or the refund of a held deposit. The
-- end-to-end id is the payment's identity with the provider: a resubmission after a crash carries the
-- same one, so the provider pays it once, and a result reported twice is applied once.
CREATE TABLE pix_payouts (
  end_to_end_id     text PRIMARY KEY,
  environment       text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  transaction_id    uuid NOT NULL REFERENCES transactions (id),
  kind              text NOT NULL CHECK (kind IN ('OFF_RAMP', 'REFUND')),
  amount            bigint NOT NULL CHECK (amount > 0),
  -- OFF_RAMP: the receiving PIX key; REFUND: the deposit sent back
  bank_account_id   uuid REFERENCES bank_accounts (id),
  refunded_end_to_end_id text REFERENCES pix_deposits (end_to_end_id),
  -- PENDING: not yet accepted by the rail; SUBMITTED: accepted, result awaited
  status            text NOT NULL CHECK (status IN ('PENDING', 'SUBMITTED', 'COMPLETED', 'REJECTED', 'RETURNED')),
  attempts          integer NOT NULL DEFAULT 0,
  next_attempt_at   timestamptz,
  failure_reason    text,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL,
  CHECK ((kind = 'OFF_RAMP') = (bank_account_id IS NOT NULL)),
  CHECK ((kind = 'REFUND') = (refunded_end_to_end_id IS NOT NULL)),
  CHECK ((status = 'PENDING') = (next_attempt_at IS NOT NULL))
);
CREATE INDEX pix_payouts_transaction ON pix_payouts (transaction_id, created_at);
CREATE INDEX pix_payouts_due ON pix_payouts (next_attempt_at) WHERE status = 'PENDING';
-- a deposit is sent back at most once (a rejected refund may be tried again)
CREATE UNIQUE INDEX pix_payouts_one_refund ON pix_payouts (refunded_end_to_end_id)
  WHERE refunded_end_to_end_id IS NOT NULL AND status <> 'REJECTED';

-- Items of a provider notification that could not be read, kept for operations; the rest of the batch
-- is processed.
CREATE TABLE pix_notification_rejects (
  id           uuid PRIMARY KEY,
  item         jsonb NOT NULL,
  reason       text NOT NULL,
  received_at  timestamptz NOT NULL
);

-- Ledger: the accounts and movements of money out.
ALTER TABLE ledger_journals DROP CONSTRAINT ledger_journals_kind_check;
ALTER TABLE ledger_journals ADD CONSTRAINT ledger_journals_kind_check CHECK (kind IN ('DEPOSIT_RECEIVED',
  'FEE', 'CONVERSION', 'STABLECOIN_CREDITED', 'OFF_RAMP_RESERVED', 'PAYOUT_SENT', 'OFF_RAMP_RELEASED',
  'PAYOUT_RETURNED', 'REFUND_RESERVED', 'REFUND_RELEASED'));
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_account_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_account_check CHECK (account IN ('PIX_SETTLEMENT',
  'CUSTOMER_FIAT', 'FEE_REVENUE', 'PARTNER_FEE_REVENUE', 'CONVERSION_DESK', 'STABLECOIN_IN_TRANSIT',
  'CUSTOMER_WALLET', 'OFF_RAMP_RESERVE', 'PAYOUT_IN_TRANSIT'));
