-- Bank accounts that pay US dollars: besides a PIX key (rail PIX, BRL), an account at a US bank reached over
-- ACH or wire (USD), named by its ABA routing number, its account number and its type. Each row is one or
-- the other, never a mix: a PIX row has its key and no US fields; an ACH or WIRE row has its US fields and
-- no key. A US account's holder may have no tax id (and one given is free-form: an SSN, an EIN, a foreign
-- id); the canonical forms of 006 (PIX key, CPF or CNPJ) apply to PIX rows only.
ALTER TABLE bank_accounts DROP CONSTRAINT bank_accounts_rail_check;
ALTER TABLE bank_accounts ADD CONSTRAINT bank_accounts_rail_check CHECK (rail IN ('PIX', 'ACH', 'WIRE'));
ALTER TABLE bank_accounts DROP CONSTRAINT bank_accounts_currency_check;
ALTER TABLE bank_accounts ADD CONSTRAINT bank_accounts_currency_check CHECK (currency IN ('BRL', 'USD'));

ALTER TABLE bank_accounts
  ALTER COLUMN key_type DROP NOT NULL,
  ALTER COLUMN key_value DROP NOT NULL,
  ALTER COLUMN holder_tax_id DROP NOT NULL,
  ADD COLUMN routing_number text,
  ADD COLUMN account_number text,
  ADD COLUMN account_type text CHECK (account_type IN ('CHECKING', 'SAVINGS'));

ALTER TABLE bank_accounts ADD CONSTRAINT bank_accounts_rail_identifier CHECK (
  CASE rail
    WHEN 'PIX' THEN currency = 'BRL'
      AND key_type IS NOT NULL AND key_value IS NOT NULL AND holder_tax_id IS NOT NULL
      AND routing_number IS NULL AND account_number IS NULL AND account_type IS NULL
    ELSE currency = 'USD'
      AND key_type IS NULL AND key_value IS NULL
      AND routing_number IS NOT NULL AND routing_number ~ '^\d{9}$'
      AND account_number IS NOT NULL
      AND account_number ~ CASE rail WHEN 'ACH' THEN '^[0-9A-Z]{1,17}$' ELSE '^[0-9A-Z]{1,34}$' END
      AND account_type IS NOT NULL
      AND (holder_tax_id IS NULL OR length(holder_tax_id) BETWEEN 1 AND 32)
  END
);

ALTER TABLE bank_accounts DROP CONSTRAINT bank_accounts_key_canonical;
ALTER TABLE bank_accounts ADD CONSTRAINT bank_accounts_key_canonical CHECK (
  rail <> 'PIX' OR CASE key_type
    WHEN 'CPF'   THEN key_value ~ '^\d{3}\.\d{3}\.\d{3}-\d{2}$'
    WHEN 'CNPJ'  THEN key_value ~ '^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}/[0-9A-Z]{4}-\d{2}$'
    WHEN 'EMAIL' THEN key_value = lower(key_value) AND length(key_value) <= 77 AND key_value ~ '^[^@\s]+@[^@\s]+$'
    WHEN 'PHONE' THEN key_value ~ '^\+55[1-9]{2}\d{8,9}$'
    WHEN 'EVP'   THEN key_value ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
  END
);
ALTER TABLE bank_accounts DROP CONSTRAINT bank_accounts_holder_tax_id_canonical;
ALTER TABLE bank_accounts ADD CONSTRAINT bank_accounts_holder_tax_id_canonical CHECK (
  rail <> 'PIX' OR CASE holder_type
    WHEN 'INDIVIDUAL' THEN holder_tax_id ~ '^\d{3}\.\d{3}\.\d{3}-\d{2}$'
    WHEN 'BUSINESS'   THEN holder_tax_id ~ '^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}/[0-9A-Z]{4}-\d{2}$'
  END
);
