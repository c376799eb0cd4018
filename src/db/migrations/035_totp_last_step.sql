-- The time step of the last TOTP code a web user signed in (or enabled the second factor) with: a code
-- is accepted only for a later step, so one code never completes two sign-ins.
ALTER TABLE web_users ADD COLUMN totp_last_step bigint;
