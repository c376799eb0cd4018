-- People who sign in to the web interfaces: a partner's staff on the dashboard (one project each, with a
-- role) and platform staff on the operator console (each tied to an operator account, which the audit log
-- names). Passwords are argon2id hashes; TOTP secrets are encrypted with the instance key.
CREATE TABLE web_users (
  id             uuid PRIMARY KEY,
  surface        text NOT NULL CHECK (surface IN ('dashboard', 'console')),
  project_id     uuid REFERENCES projects (id),
  operator_id    uuid REFERENCES operators (id),
  email          text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  role           text NOT NULL CHECK (role IN ('admin', 'developer', 'viewer', 'operator')),
  password_hash  text,
  totp_secret    text,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  removed_at     timestamptz,
  CHECK ((surface = 'dashboard' AND project_id IS NOT NULL AND role <> 'operator')
      OR (surface = 'console' AND operator_id IS NOT NULL AND role = 'operator'))
);
-- One active account per e-mail address and surface, so that signing in names exactly one user.
CREATE UNIQUE INDEX web_users_email ON web_users (surface, lower(email)) WHERE removed_at IS NULL;
CREATE INDEX web_users_project ON web_users (project_id, created_at DESC, id DESC);

-- Single-use, expiring invitations; only the hash of the token is kept.
CREATE TABLE web_invites (
  token_hash  text PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES web_users (id),
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX web_invites_user ON web_invites (user_id);

-- Signed-in browsers. The cookie carries the token; only its hash is stored. `mfa_pending` sessions may
-- only complete the second factor.
CREATE TABLE web_sessions (
  token_hash   text PRIMARY KEY,
  user_id      uuid NOT NULL REFERENCES web_users (id),
  csrf_token   text NOT NULL,
  mfa_pending  boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL
);
CREATE INDEX web_sessions_user ON web_sessions (user_id);

-- Failed sign-ins, counted per account and per address over a sliding window.
CREATE TABLE web_sign_in_failures (
  id          uuid PRIMARY KEY,
  scope       text NOT NULL CHECK (scope IN ('account', 'address')),
  subject     text NOT NULL,
  at          timestamptz NOT NULL
);
CREATE INDEX web_sign_in_failures_subject ON web_sign_in_failures (scope, subject, at);

-- Metadata of public API requests, for the partner's request log: no bodies of successful requests,
-- no query strings, no personal data.
CREATE TABLE request_log (
  id           uuid PRIMARY KEY,
  project_id   uuid NOT NULL REFERENCES projects (id),
  environment  text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  api_key_id   uuid,
  method       text NOT NULL,
  path         text NOT NULL,
  status       integer NOT NULL,
  latency_ms   integer NOT NULL,
  request_id   text NOT NULL,
  problem      jsonb,
  created_at   timestamptz NOT NULL
);
CREATE INDEX request_log_list ON request_log (project_id, environment, created_at DESC, id DESC);
CREATE INDEX request_log_created ON request_log (created_at);
