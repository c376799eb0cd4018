-- Partner metadata (up to 20 string keys, string values up to 500 characters, checked by the API) on
-- customers and bank accounts, as on transactions since 010. NULL is "none given" and answers `{}`.
ALTER TABLE customers ADD COLUMN metadata jsonb;
ALTER TABLE bank_accounts ADD COLUMN metadata jsonb;
