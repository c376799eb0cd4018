-- What a page shows once after a form that created something (a new API key, a webhook signing secret, an
-- invitation link): the form's POST stores it here and redirects, and the page the redirect lands on reads
-- it and deletes it in one statement, so a reload, Back or a second tab finds nothing. Bound to the
-- session that made it (gone with it), encrypted under the instance key, and short-lived.
CREATE TABLE web_flashes (
  id            uuid PRIMARY KEY,
  session_hash  text NOT NULL REFERENCES web_sessions (token_hash) ON DELETE CASCADE,
  kind          text NOT NULL,
  sealed        text NOT NULL,
  expires_at    timestamptz NOT NULL
);
CREATE INDEX web_flashes_session ON web_flashes (session_hash);
CREATE INDEX web_flashes_expiry ON web_flashes (expires_at);
