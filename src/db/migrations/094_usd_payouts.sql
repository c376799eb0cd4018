-- Dollars out: an off-ramp pays USD to a US bank account over ACH or wire. The sends table carries every
-- payment Ponte makes to a bank account, whichever rail: PIX (BRL, keyed by its end-to-end id or idEnvio)
-- or the US bank (USD, keyed by the idempotency key Increase is given, derived from the off-ramp).
ALTER TABLE pix_payouts ADD COLUMN rail text NOT NULL DEFAULT 'PIX' CHECK (rail IN ('PIX', 'ACH', 'WIRE'));
ALTER TABLE pix_payouts ADD COLUMN currency text NOT NULL DEFAULT 'BRL' CHECK (currency IN ('BRL', 'USD'));
ALTER TABLE pix_payouts ADD CONSTRAINT pix_payouts_rail_currency
  CHECK ((rail = 'PIX') = (currency = 'BRL'));
-- a refund gives a PIX deposit back over PIX; dollars received are given back by the bank intake
ALTER TABLE pix_payouts ADD CONSTRAINT pix_payouts_refund_pix CHECK (kind <> 'REFUND' OR rail = 'PIX');

ALTER TABLE transactions DROP CONSTRAINT transactions_target_currency_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_target_currency_check
  CHECK (target_currency IN ('BRL', 'USD', 'USDC', 'USDT'));
-- an off-ramp pays BRL over PIX or USD over ACH or wire
ALTER TABLE transactions DROP CONSTRAINT transactions_offramp_fields;
ALTER TABLE transactions ADD CONSTRAINT transactions_offramp_fields
  CHECK (type <> 'OFF_RAMP' OR (bank_account_id IS NOT NULL AND purpose IS NOT NULL AND rate IS NOT NULL
                                AND CASE WHEN rail = 'PIX' THEN target_currency = 'BRL'
                                         ELSE target_currency = 'USD' END));

-- an off-ramp returned over ACH keeps the receiving bank's Nacha return code (R01, R03, …)
ALTER TABLE transactions ADD COLUMN return_code text CHECK (return_code ~ '^R[0-9]{2}$');
ALTER TABLE transactions ADD CONSTRAINT transactions_return_code_returned
  CHECK (return_code IS NULL OR status = 'RETURNED');
