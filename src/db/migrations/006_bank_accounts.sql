-- Bank accounts: the canonical forms the API stores are also guaranteed by the database, so no writer
-- can store a PIX key or a holder tax id in any other shape.

ALTER TABLE bank_accounts
  ADD CONSTRAINT bank_accounts_key_canonical CHECK (
    CASE key_type
      WHEN 'CPF'   THEN key_value ~ '^\d{3}\.\d{3}\.\d{3}-\d{2}$'
      WHEN 'CNPJ'  THEN key_value ~ '^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}/[0-9A-Z]{4}-\d{2}$'
      WHEN 'EMAIL' THEN key_value = lower(key_value) AND length(key_value) <= 77 AND key_value ~ '^[^@\s]+@[^@\s]+$'
      WHEN 'PHONE' THEN key_value ~ '^\+55[1-9]{2}\d{8,9}$'
      WHEN 'EVP'   THEN key_value ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    END
  ),
  ADD CONSTRAINT bank_accounts_holder_tax_id_canonical CHECK (
    CASE holder_type
      WHEN 'INDIVIDUAL' THEN holder_tax_id ~ '^\d{3}\.\d{3}\.\d{3}-\d{2}$'
      WHEN 'BUSINESS'   THEN holder_tax_id ~ '^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}/[0-9A-Z]{4}-\d{2}$'
    END
  ),
  ADD CONSTRAINT bank_accounts_incorporation_business CHECK (
    holder_type = 'BUSINESS' OR holder_incorporation_date IS NULL
  ),
  ADD CONSTRAINT bank_accounts_deleted_after_created CHECK (deleted_at IS NULL OR deleted_at >= created_at);
