-- A charge registered at a PSP has a txid of 26 to 35 letters and digits (API Pix `cob`), derived from
-- the transaction's id; the sandbox's simulated charges keep their 25.
ALTER TABLE transactions DROP CONSTRAINT transactions_pix_txid_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_pix_txid_check CHECK (pix_txid ~ '^[A-Za-z0-9]{1,35}$');
