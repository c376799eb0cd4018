-- The request log's detail: the idempotency key a request carried, and its request and response bodies,
-- redacted (secret and personal-data fields, keys, tokens and tax ids) and cut to 16 KB before they are written.
ALTER TABLE request_log ADD COLUMN idempotency_key text;
ALTER TABLE request_log ADD COLUMN request_body text;
ALTER TABLE request_log ADD COLUMN response_body text;
