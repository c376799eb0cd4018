-- What settlement claims, without the on-ramps whose stablecoin is already on its way: those wait for
-- their chain confirmations (the chain-send job finishes them), and the claim skips them. While they were
-- in this index every claim walked past all of them first: with 20,000 awaiting confirmation a claim read
-- 857 pages and took 5.4 ms, on every step of every transaction settled.
DROP INDEX transactions_settlement_due;
CREATE INDEX transactions_settlement_due ON transactions (updated_at)
  WHERE status IN ('TRANSFERRING_FIAT', 'TRADING', 'TRANSFERRING_STABLECOIN')
    AND NOT (type = 'OFF_RAMP' AND status = 'TRANSFERRING_FIAT')
    AND chain_send_id IS NULL;
