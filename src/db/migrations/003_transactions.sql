-- Money in: on-ramp transactions over PIX, the PIX deposits the rails report, the operator-set
-- conversion rates, and the double-entry ledger every money movement posts to.
-- Amounts are bigint units at the currency's scale: BRL cents (2), USDC/USDT micro-units (6);
-- rates are target units per source unit at scale 10.

CREATE TABLE conversion_rates (
  id          uuid PRIMARY KEY,
  pair        text NOT NULL CHECK (pair IN ('BRL/USDC', 'BRL/USDT')),
  rate        bigint NOT NULL CHECK (rate > 0),
  set_by      text NOT NULL,
  created_at  timestamptz NOT NULL
);
-- The rate in force for a pair is the newest one.
CREATE INDEX conversion_rates_current ON conversion_rates (pair, created_at DESC, id DESC);

CREATE TABLE transactions (
  id                  uuid PRIMARY KEY,
  customer_id         uuid NOT NULL REFERENCES customers (id),
  project_id          uuid NOT NULL REFERENCES projects (id),
  environment         text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  type                text NOT NULL CHECK (type IN ('ON_RAMP')),
  status              text NOT NULL CHECK (status IN ('AWAITING_FUNDS', 'TRANSFERRING_FIAT', 'TRADING',
                        'TRANSFERRING_STABLECOIN', 'SUCCESS', 'FAILED', 'EXPIRED')),
  currency            text NOT NULL CHECK (currency IN ('BRL')),
  amount              bigint NOT NULL CHECK (amount > 0),
  target_currency     text NOT NULL CHECK (target_currency IN ('USDC', 'USDT')),
  rail                text NOT NULL CHECK (rail IN ('PIX')),
  pix_txid            text NOT NULL UNIQUE CHECK (pix_txid ~ '^[A-Za-z0-9]{1,25}$'),
  br_code             text NOT NULL,
  expires_at          timestamptz NOT NULL,
  -- the fee terms in force when the charge was issued
  fee_basis_points    integer NOT NULL CHECK (fee_basis_points BETWEEN 0 AND 10000),
  fee_flat            bigint NOT NULL CHECK (fee_flat >= 0),
  -- the deposit that funded it
  deposit_amount      bigint CHECK (deposit_amount > 0),
  deposit_end_to_end_id text,
  deposited_at        timestamptz,
  -- the conversion, fixed when TRADING completes
  rate                bigint CHECK (rate > 0),
  fee                 bigint CHECK (fee >= 0),
  net_amount          bigint CHECK (net_amount > 0),
  target_amount       bigint CHECK (target_amount > 0),
  failure_reason      text,
  timeline            jsonb NOT NULL,
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL,
  CHECK ((rate IS NULL) = (fee IS NULL) AND (fee IS NULL) = (net_amount IS NULL)
         AND (net_amount IS NULL) = (target_amount IS NULL)),
  CHECK (fee IS NULL OR fee + net_amount = amount),
  CHECK (status NOT IN ('TRANSFERRING_STABLECOIN', 'SUCCESS') OR target_amount IS NOT NULL),
  CHECK (status = 'AWAITING_FUNDS' OR status = 'EXPIRED' OR deposit_amount IS NOT NULL),
  CHECK ((status IN ('FAILED', 'EXPIRED')) = (failure_reason IS NOT NULL))
);
CREATE INDEX transactions_list ON transactions (project_id, environment, created_at DESC, id DESC);
CREATE INDEX transactions_customer ON transactions (customer_id, created_at DESC, id DESC);
CREATE INDEX transactions_expiry ON transactions (expires_at) WHERE status = 'AWAITING_FUNDS';
CREATE INDEX transactions_in_flight ON transactions (updated_at)
  WHERE status IN ('TRANSFERRING_FIAT', 'TRADING', 'TRANSFERRING_STABLECOIN');

-- Every PIX payment the rails reported, once: the end-to-end id is the payment's identity, so a
-- redelivered notification finds its row and changes nothing.
CREATE TABLE pix_deposits (
  end_to_end_id   text PRIMARY KEY,
  environment     text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  txid            text NOT NULL,
  transaction_id  uuid REFERENCES transactions (id),
  amount          bigint NOT NULL CHECK (amount > 0),
  paid_at         timestamptz NOT NULL,
  -- APPLIED: funded its transaction; HELD_FOR_REFUND: its transaction no longer waited for it;
  -- UNMATCHED: no transaction has its txid
  outcome         text NOT NULL CHECK (outcome IN ('APPLIED', 'HELD_FOR_REFUND', 'UNMATCHED')),
  payload         jsonb NOT NULL,
  received_at     timestamptz NOT NULL,
  CHECK ((outcome = 'UNMATCHED') = (transaction_id IS NULL))
);
CREATE INDEX pix_deposits_transaction ON pix_deposits (transaction_id);

-- The ledger: a journal per money movement, its entries debit (positive) and credit (negative)
-- accounts, and every journal sums to zero in each currency (checked at commit).
CREATE TABLE ledger_journals (
  id              uuid PRIMARY KEY,
  project_id      uuid NOT NULL REFERENCES projects (id),
  environment     text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  kind            text NOT NULL CHECK (kind IN ('DEPOSIT_RECEIVED', 'FEE', 'CONVERSION', 'STABLECOIN_CREDITED')),
  -- what the movement is about: a deposit's end-to-end id, or a transaction id; posted once
  reference       text NOT NULL,
  transaction_id  uuid REFERENCES transactions (id),
  created_at      timestamptz NOT NULL,
  UNIQUE (kind, reference)
);
CREATE INDEX ledger_journals_transaction ON ledger_journals (transaction_id);

CREATE TABLE ledger_entries (
  id           bigserial PRIMARY KEY,
  journal_id   uuid NOT NULL REFERENCES ledger_journals (id),
  account      text NOT NULL CHECK (account IN ('PIX_SETTLEMENT', 'CUSTOMER_FIAT', 'FEE_REVENUE',
                 'CONVERSION_DESK', 'STABLECOIN_IN_TRANSIT', 'CUSTOMER_WALLET')),
  customer_id  uuid REFERENCES customers (id),
  currency     text NOT NULL CHECK (currency IN ('BRL', 'USDC', 'USDT')),
  amount       bigint NOT NULL CHECK (amount <> 0),
  CHECK ((account IN ('CUSTOMER_FIAT', 'CUSTOMER_WALLET')) = (customer_id IS NOT NULL))
);
CREATE INDEX ledger_entries_journal ON ledger_entries (journal_id);
CREATE INDEX ledger_entries_customer ON ledger_entries (customer_id, currency) WHERE customer_id IS NOT NULL;

CREATE FUNCTION ledger_journal_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unbalanced text;
BEGIN
  SELECT currency INTO unbalanced
    FROM ledger_entries WHERE journal_id = NEW.journal_id
   GROUP BY currency HAVING sum(amount) <> 0
   LIMIT 1;
  IF unbalanced IS NOT NULL THEN
    RAISE EXCEPTION 'ledger journal % does not balance in %', NEW.journal_id, unbalanced
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END
$$;

-- Checked when the transaction commits, after all entries of the journal are in.
CREATE CONSTRAINT TRIGGER ledger_entries_balanced
  AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_journal_balanced();

CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % on % is not allowed', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_journals_append_only BEFORE UPDATE OR DELETE ON ledger_journals
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
