-- Sends through a PSP are keyed by the id Ponte gives them (Efí's idEnvio, a refund's devolucao id),
-- derived from the off-ramp or refund, so that a resend is the same payment; the PSP assigns the PIX's
-- end-to-end id, recorded when it answers.
ALTER TABLE pix_payouts ADD COLUMN psp_end_to_end_id text UNIQUE;

-- Amounts the receiving bank gave back on a send (a send may be returned in several parts), each once.
CREATE TABLE pix_send_returns (
  payout_key   text NOT NULL REFERENCES pix_payouts (end_to_end_id),
  return_id    text NOT NULL,
  amount       bigint NOT NULL CHECK (amount > 0),
  returned_at  timestamptz NOT NULL,
  recorded_at  timestamptz NOT NULL,
  PRIMARY KEY (payout_key, return_id)
);
