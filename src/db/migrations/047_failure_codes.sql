-- A machine-readable code beside each failure reason (src/core/failure-codes.ts). Transactions that
-- failed or expired before it existed get the code their reason's wording names.
ALTER TABLE transactions ADD COLUMN failure_code text;
ALTER TABLE chain_transactions ADD COLUMN failure_code text;

UPDATE transactions SET failure_code = CASE
    WHEN failure_reason LIKE 'No deposit arrived before %' THEN 'deposit_window_expired'
    WHEN failure_reason LIKE 'The deposit arrived after the charge expired %' THEN 'deposit_after_expiry'
    WHEN failure_reason LIKE 'The deposit of % differs from the requested %' THEN 'deposit_amount_mismatch'
    WHEN failure_reason LIKE 'No % rate is set%' THEN 'rate_unavailable'
    WHEN failure_reason LIKE '% converts to no representable amount %' THEN 'conversion_unrepresentable'
    WHEN failure_reason LIKE 'The stablecoin transfer to the customer''s wallet failed %' THEN 'stablecoin_delivery_failed'
    WHEN failure_reason LIKE 'The PIX payment was rejected%' THEN 'payout_rejected'
  END
 WHERE failure_reason IS NOT NULL;

UPDATE chain_transactions SET failure_code = CASE
    WHEN failure_reason LIKE 'The transfer failed on chain%' THEN 'chain_transfer_failed'
    WHEN failure_reason LIKE 'A chain reorganisation removed%' THEN 'chain_reorganized'
  END
 WHERE failure_reason IS NOT NULL;
