/** SQL of the web interfaces' people: users, invitations, sessions and failed sign-ins. */
import type { Executor } from '../../db/types.ts';

export type Surface = 'dashboard' | 'console';
export type WebRole = 'admin' | 'developer' | 'viewer' | 'operator';

export type WebUserRow = {
  id: string;
  surface: Surface;
  project_id: string | null;
  operator_id: string | null;
  email: string;
  role: WebRole;
  password_hash: string | null;
  totp_secret: string | null;
  created_at: Date;
  updated_at: Date;
  removed_at: Date | null;
};

const USER_COLUMNS = `id, surface, project_id, operator_id, email, role, password_hash, totp_secret,
  created_at, updated_at, removed_at`;

export async function insertUser(db: Executor, row: WebUserRow): Promise<void> {
  await db.query(
    `INSERT INTO web_users (${USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      row.id,
      row.surface,
      row.project_id,
      row.operator_id,
      row.email,
      row.role,
      row.password_hash,
      row.totp_secret,
      row.created_at,
      row.updated_at,
      row.removed_at,
    ],
  );
}

export async function findActiveUser(db: Executor, id: string): Promise<WebUserRow | undefined> {
  const rows = await db.query<WebUserRow>(
    `SELECT ${USER_COLUMNS} FROM web_users WHERE id = $1 AND removed_at IS NULL`,
    [id],
  );
  return rows[0];
}

export async function lockActiveUser(db: Executor, id: string): Promise<WebUserRow | undefined> {
  const rows = await db.query<WebUserRow>(
    `SELECT ${USER_COLUMNS} FROM web_users WHERE id = $1 AND removed_at IS NULL FOR UPDATE`,
    [id],
  );
  return rows[0];
}

export async function findUserByEmail(
  db: Executor,
  surface: Surface,
  email: string,
): Promise<WebUserRow | undefined> {
  const rows = await db.query<WebUserRow>(
    `SELECT ${USER_COLUMNS} FROM web_users
      WHERE surface = $1 AND lower(email) = lower($2) AND removed_at IS NULL`,
    [surface, email],
  );
  return rows[0];
}

export async function listProjectUsers(db: Executor, projectId: string): Promise<WebUserRow[]> {
  return db.query<WebUserRow>(
    `SELECT ${USER_COLUMNS} FROM web_users
      WHERE surface = 'dashboard' AND project_id = $1 AND removed_at IS NULL
      ORDER BY created_at DESC, id DESC`,
    [projectId],
  );
}

export async function countAdmins(db: Executor, projectId: string): Promise<number> {
  const rows = await db.query<{ n: bigint }>(
    `SELECT count(*) AS n FROM web_users
      WHERE project_id = $1 AND role = 'admin' AND removed_at IS NULL AND password_hash IS NOT NULL`,
    [projectId],
  );
  return Number(rows[0]!.n);
}

export async function updateUser(
  db: Executor,
  id: string,
  change: Partial<Pick<WebUserRow, 'role' | 'password_hash' | 'totp_secret' | 'removed_at'>>,
  at: Date,
): Promise<void> {
  const entries = Object.entries(change);
  const sets = entries.map(([column], index) => `${column} = $${index + 3}`);
  await db.query(`UPDATE web_users SET updated_at = $2, ${sets.join(', ')} WHERE id = $1`, [
    id,
    at,
    ...entries.map(([, value]) => value),
  ]);
}

export async function insertInvite(
  db: Executor,
  row: { token_hash: string; user_id: string; created_at: Date; expires_at: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO web_invites (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
    [row.token_hash, row.user_id, row.created_at, row.expires_at],
  );
}

/** An unused, unexpired invitation, locked so that it is taken once. */
export async function lockOpenInvite(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<{ user_id: string } | undefined> {
  const rows = await db.query<{ user_id: string }>(
    `SELECT user_id FROM web_invites
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 FOR UPDATE`,
    [tokenHash, now],
  );
  return rows[0];
}

export async function findOpenInvite(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<{ user_id: string } | undefined> {
  const rows = await db.query<{ user_id: string }>(
    'SELECT user_id FROM web_invites WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2',
    [tokenHash, now],
  );
  return rows[0];
}

export async function useInvite(db: Executor, tokenHash: string, at: Date): Promise<void> {
  await db.query('UPDATE web_invites SET used_at = $2 WHERE token_hash = $1', [tokenHash, at]);
}

/** Closes every open invitation of a user (a new one replaces them; removal ends them). */
export async function closeInvites(db: Executor, userId: string, at: Date): Promise<void> {
  await db.query('UPDATE web_invites SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [userId, at]);
}

export type SessionRow = {
  token_hash: string;
  user_id: string;
  csrf_token: string;
  mfa_pending: boolean;
  created_at: Date;
  expires_at: Date;
};

export async function insertSession(db: Executor, row: SessionRow): Promise<void> {
  await db.query(
    `INSERT INTO web_sessions (token_hash, user_id, csrf_token, mfa_pending, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [row.token_hash, row.user_id, row.csrf_token, row.mfa_pending, row.created_at, row.expires_at],
  );
}

export async function findLiveSession(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<(SessionRow & { user: WebUserRow }) | undefined> {
  const rows = await db.query<SessionRow & WebUserRow & { session_created_at: Date }>(
    `SELECT s.token_hash, s.user_id, s.csrf_token, s.mfa_pending, s.created_at AS session_created_at,
            s.expires_at, ${USER_COLUMNS.replace(/(\w+)/g, 'u.$1')}
       FROM web_sessions s JOIN web_users u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.removed_at IS NULL
        AND (u.operator_id IS NULL OR EXISTS (
          SELECT 1 FROM operators o WHERE o.id = u.operator_id AND o.revoked_at IS NULL))`,
    [tokenHash, now],
  );
  const row = rows[0];
  if (!row) return undefined;
  const { token_hash, user_id, csrf_token, mfa_pending, session_created_at, expires_at, ...user } = row;
  return {
    token_hash,
    user_id,
    csrf_token,
    mfa_pending,
    created_at: session_created_at,
    expires_at,
    user: user as WebUserRow,
  };
}

export async function deleteSession(db: Executor, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM web_sessions WHERE token_hash = $1', [tokenHash]);
}

export async function deleteUserSessions(db: Executor, userId: string): Promise<void> {
  await db.query('DELETE FROM web_sessions WHERE user_id = $1', [userId]);
}

/**
 * Serialises sign-in attempts of one throttle subject (an account or an address) until the transaction
 * ends, on every process: an advisory lock on the subject, so that counting the attempts and recording
 * a new one are one step. Callers take the account's lock before the address's, always.
 */
export async function lockThrottleSubject(
  tx: Executor,
  scope: 'account' | 'address',
  subject: string,
): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`sign-in:${scope}:${subject}`]);
}

export async function insertFailure(
  db: Executor,
  row: { id: string; scope: 'account' | 'address'; subject: string; at: Date },
): Promise<void> {
  await db.query('INSERT INTO web_sign_in_failures (id, scope, subject, at) VALUES ($1, $2, $3, $4)', [
    row.id,
    row.scope,
    row.subject,
    row.at,
  ]);
}

/** Forgets attempts whose check succeeded. */
export async function deleteFailures(db: Executor, ids: readonly string[]): Promise<void> {
  await db.query('DELETE FROM web_sign_in_failures WHERE id = ANY($1::uuid[])', [ids]);
}

export async function countFailures(
  db: Executor,
  scope: 'account' | 'address',
  subject: string,
  since: Date,
): Promise<number> {
  const rows = await db.query<{ n: bigint }>(
    'SELECT count(*) AS n FROM web_sign_in_failures WHERE scope = $1 AND subject = $2 AND at > $3',
    [scope, subject, since],
  );
  return Number(rows[0]!.n);
}

export async function clearFailures(db: Executor, scope: 'account' | 'address', subject: string) {
  await db.query('DELETE FROM web_sign_in_failures WHERE scope = $1 AND subject = $2', [scope, subject]);
}

/**
 * Records that the user's TOTP code of time step `step` was used: true when no code of this step or a
 * later one was used before (one statement, so two sign-ins with one code cannot both pass).
 */
export async function useTotpStep(db: Executor, userId: string, step: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE web_users SET totp_last_step = $2
      WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING 1`,
    [userId, step],
  );
  return rows.length === 1;
}

/** Forgets what can no longer matter: expired flashes and sessions, and failures older than the window. */
export async function deleteStale(db: Executor, failuresBefore: Date, now: Date): Promise<void> {
  await db.query('DELETE FROM web_flashes WHERE expires_at <= $1', [now]);
  await db.query('DELETE FROM web_sessions WHERE expires_at <= $1', [now]);
  await db.query('DELETE FROM web_sign_in_failures WHERE at <= $1', [failuresBefore]);
}

export async function insertFlash(
  db: Executor,
  row: { id: string; session_hash: string; kind: string; sealed: string; expires_at: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO web_flashes (id, session_hash, kind, sealed, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [row.id, row.session_hash, row.kind, row.sealed, row.expires_at],
  );
}

/** Reads and deletes a live flash of the session in one statement: of two readers, one gets it. */
export async function takeFlash(
  db: Executor,
  id: string,
  sessionHash: string,
  kind: string,
  now: Date,
): Promise<string | undefined> {
  const rows = await db.query<{ sealed: string }>(
    `DELETE FROM web_flashes
      WHERE id = $1 AND session_hash = $2 AND kind = $3 AND expires_at > $4 RETURNING sealed`,
    [id, sessionHash, kind, now],
  );
  return rows[0]?.sealed;
}
