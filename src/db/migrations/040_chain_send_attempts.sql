-- The fees a send offers, and every transaction signed for it. A send stuck below the chain's base fee is
-- signed again with the same nonce and a higher fee (a replacement); any one of its transactions may be
-- the one mined, so each is kept and looked for until the send is settled.
ALTER TABLE chain_sends ADD COLUMN max_fee_per_gas bigint CHECK (max_fee_per_gas >= 0);
ALTER TABLE chain_sends ADD COLUMN max_priority_fee_per_gas bigint CHECK (max_priority_fee_per_gas >= 0);
-- The final block at which the send's nonce was first found used by a transaction that is none of the
-- send's; the send fails only when that still holds a full confirmation window later.
ALTER TABLE chain_sends ADD COLUMN nonce_taken_block bigint;

CREATE TABLE chain_send_attempts (
  send_id                   uuid NOT NULL REFERENCES chain_sends (id),
  transaction_hash          text NOT NULL,
  raw_transaction           text NOT NULL,
  max_fee_per_gas           bigint NOT NULL CHECK (max_fee_per_gas >= 0),
  max_priority_fee_per_gas  bigint NOT NULL CHECK (max_priority_fee_per_gas >= 0),
  created_at                timestamptz NOT NULL,
  PRIMARY KEY (send_id, transaction_hash)
);
