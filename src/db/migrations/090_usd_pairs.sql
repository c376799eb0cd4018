-- US dollars join the priced pairs: USD into each stablecoin and back (USD/USDC is USDC per USD), quoted
-- LOCKED or FLOATING as the BRL pairs are, and set or overridden by the operator the same way. A quote
-- converts between one fiat currency (BRL or USD) and one stablecoin.
ALTER TABLE conversion_rates DROP CONSTRAINT conversion_rates_pair_check;
ALTER TABLE conversion_rates ADD CONSTRAINT conversion_rates_pair_check
  CHECK (pair IN ('BRL/USDC', 'BRL/USDT', 'USDC/BRL', 'USDT/BRL', 'USD/USDC', 'USD/USDT', 'USDC/USD', 'USDT/USD'));

ALTER TABLE exchange_rates DROP CONSTRAINT exchange_rates_source_currency_check;
ALTER TABLE exchange_rates ADD CONSTRAINT exchange_rates_source_currency_check
  CHECK (source_currency IN ('BRL', 'USD', 'USDC', 'USDT'));
ALTER TABLE exchange_rates DROP CONSTRAINT exchange_rates_target_currency_check;
ALTER TABLE exchange_rates ADD CONSTRAINT exchange_rates_target_currency_check
  CHECK (target_currency IN ('BRL', 'USD', 'USDC', 'USDT'));
ALTER TABLE exchange_rates DROP CONSTRAINT exchange_rates_check;
ALTER TABLE exchange_rates ADD CONSTRAINT exchange_rates_fiat_and_stablecoin
  CHECK ((source_currency IN ('BRL', 'USD')) <> (target_currency IN ('BRL', 'USD')));
