-- Token transfer logs to a watched address that cannot become a deposit (an amount beyond what the ledger
-- holds, a log that cannot be recorded): kept here with the reason, once per log per block, for an
-- operator to look at, while the watcher carries on with every other log.
CREATE TABLE chain_rejected_logs (
  environment      text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  blockchain       text NOT NULL CHECK (blockchain IN ('ETHEREUM', 'POLYGON', 'BASE', 'TRON')),
  transaction_hash text NOT NULL,
  log_index        integer NOT NULL,
  block_hash       text NOT NULL,
  block_number     bigint,
  to_address       text NOT NULL,
  currency         text NOT NULL,
  amount           numeric(78, 0) NOT NULL,
  reason           text NOT NULL,
  seen_at          timestamptz NOT NULL,
  PRIMARY KEY (environment, blockchain, transaction_hash, log_index, block_hash)
);
