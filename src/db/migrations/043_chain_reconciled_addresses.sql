-- When each watched address was last reconciled: a pass checks a bounded batch, the least recently
-- checked first, so that every address is covered in turn however many there are.
CREATE TABLE chain_reconciled_addresses (
  environment  text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  blockchain   text NOT NULL CHECK (blockchain IN ('ETHEREUM', 'POLYGON', 'BASE', 'TRON')),
  address      text NOT NULL,
  checked_at   timestamptz NOT NULL,
  PRIMARY KEY (environment, blockchain, address)
);
CREATE INDEX chain_reconciled_addresses_due ON chain_reconciled_addresses (environment, blockchain, checked_at);
