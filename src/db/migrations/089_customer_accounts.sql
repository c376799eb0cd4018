-- Accounts in a currency for a partner's customer: today US dollars, each with its own account number at
-- the US bank (or a simulated one in the sandbox), so that an ACH credit or a wire to it names the
-- customer. The number is provisioned after the row exists (PROVISIONING), outside any transaction.
CREATE TABLE customer_accounts (
  id                        uuid PRIMARY KEY,
  customer_id               uuid NOT NULL REFERENCES customers (id),
  project_id                uuid NOT NULL REFERENCES projects (id),
  environment               text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  currency                  text NOT NULL CHECK (currency IN ('USD')),
  destination_currency      text NOT NULL CHECK (destination_currency IN ('USDC', 'USDT')),
  blockchain                text,
  status                    text NOT NULL CHECK (status IN ('PROVISIONING', 'ACTIVE', 'CLOSED')),
  -- which bank holds the number: INCREASE, or SANDBOX when no bank is configured for the sandbox
  bank                      text NOT NULL CHECK (bank IN ('INCREASE', 'SANDBOX')),
  bank_account_number_id    text,
  routing_number            text,
  account_number            text,
  bank_name                 text,
  bank_address              text,
  beneficiary_name          text NOT NULL,
  created_at                timestamptz NOT NULL,
  updated_at                timestamptz NOT NULL,
  closed_at                 timestamptz,
  CHECK (status = 'PROVISIONING' OR (routing_number IS NOT NULL AND account_number IS NOT NULL))
);
CREATE INDEX customer_accounts_customer ON customer_accounts (customer_id, created_at DESC, id DESC);
-- an inbound transfer names its account number: it leads to exactly one account
CREATE UNIQUE INDEX customer_accounts_bank_number ON customer_accounts (bank, bank_account_number_id)
  WHERE bank_account_number_id IS NOT NULL;
CREATE UNIQUE INDEX customer_accounts_number ON customer_accounts (environment, routing_number, account_number)
  WHERE account_number IS NOT NULL;
