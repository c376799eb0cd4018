/**
 * SQL for idempotency keys. A claim is one INSERT ... ON CONFLICT: it succeeds for a new key, for an
 * expired one, and for one whose first request was abandoned (its lock older than the lease, as when a
 * process died mid-request); otherwise the existing row tells the caller what to answer.
 */
import type { Executor } from '../db/types.ts';
import type { Tenant } from '../lib/environment.ts';

/** How long a key lives after its first use. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/**
 * An answer marked `Cache-Control: no-store` carries a secret shown once (a webhook signing secret): it
 * is replayed only this long after the request, enough for a client to retry a lost answer, and its
 * body is then erased from the store.
 */
export const SECRET_REPLAY_WINDOW_MS = 10 * 60_000;

/** After this long without an answer, the first request is presumed dead and a retry may take over. */
export const IDEMPOTENCY_LOCK_LEASE_MS = 60_000;

export type IdempotencyScope = Tenant & { method: string; route: string; key: string };

export type StoredAnswer = { status: number; headers: Record<string, string>; body: string };

export type ExistingKey = {
  fingerprint: string;
  inFlight: boolean;
  answer: StoredAnswer | null;
  /** An answer was given but is no longer kept (it carried a secret, and its window has passed). */
  answerErased: boolean;
};

export const carriesSecret = (headers: Record<string, string>) =>
  /\bno-store\b/i.test(headers['cache-control'] ?? '');

type Row = {
  fingerprint: string;
  created_at: Date;
  lock_token: string | null;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
};

const SCOPE = 'project_id = $1 AND environment = $2 AND method = $3 AND route = $4 AND key = $5';
const scopeParams = (s: IdempotencyScope) => [s.projectId, s.environment, s.method, s.route, s.key];

/**
 * Takes the key for this request. Returns true when this request now owns it (and must run); false when
 * a live row exists, which `findKey` then describes.
 */
export async function claimKey(
  db: Executor,
  scope: IdempotencyScope,
  fingerprint: string,
  lockToken: string,
  now: Date,
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO idempotency_keys AS k (project_id, environment, method, route, key, fingerprint, lock_token,
                                        locked_at, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9)
     ON CONFLICT (project_id, environment, method, route, key) DO UPDATE
        SET fingerprint = EXCLUDED.fingerprint, lock_token = EXCLUDED.lock_token,
            locked_at = EXCLUDED.locked_at, response_status = NULL, response_headers = NULL,
            response_body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
      WHERE k.expires_at <= $8
         OR (k.response_status IS NULL AND k.lock_token IS NOT NULL AND k.locked_at <= $10
             AND k.fingerprint = EXCLUDED.fingerprint)
     RETURNING 1`,
    [
      ...scopeParams(scope),
      fingerprint,
      lockToken,
      now,
      new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      new Date(now.getTime() - IDEMPOTENCY_LOCK_LEASE_MS),
    ],
  );
  return rows.length === 1;
}

export async function findKey(db: Executor, scope: IdempotencyScope, now: Date): Promise<ExistingKey | null> {
  const rows = await db.query<Row>(
    `SELECT fingerprint, created_at, lock_token, response_status, response_headers, response_body
       FROM idempotency_keys WHERE ${SCOPE} AND expires_at > $6`,
    [...scopeParams(scope), now],
  );
  const row = rows[0];
  if (!row) return null;
  const headers = row.response_headers ?? {};
  const secretExpired =
    carriesSecret(headers) && now.getTime() - row.created_at.getTime() >= SECRET_REPLAY_WINDOW_MS;
  const answered =
    row.response_status !== null && !!row.response_body && row.response_body !== '' && !secretExpired;
  return {
    fingerprint: row.fingerprint,
    inFlight: row.lock_token !== null && row.response_status === null,
    answer: answered ? { status: row.response_status!, headers, body: row.response_body! } : null,
    answerErased: row.response_status !== null && !answered,
  };
}

/**
 * Records the answer inside the transaction of the change it answers; the row keeps the request's lock
 * token, so that request may still replace the answer (`storeAnswer`) if what it sends differs. False
 * when the request no longer holds the key (a retry took it over after the lease): the caller must not
 * commit.
 */
export async function commitAnswer(
  tx: Executor,
  scope: IdempotencyScope,
  lockToken: string,
  answer: StoredAnswer,
  now: Date,
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE idempotency_keys SET response_status = $7, response_headers = $8, response_body = $9,
            locked_at = $10
      WHERE ${SCOPE} AND lock_token = $6
     RETURNING 1`,
    [...scopeParams(scope), lockToken, answer.status, JSON.stringify(answer.headers), answer.body, now],
  );
  return rows.length === 1;
}

/**
 * Inside a transaction of the request holding the key: true when it still holds it, and then the row
 * stays locked by this transaction until it ends, so no retry can take the key over meanwhile (a
 * takeover waits, and after a COMMIT finds the lease renewed or the answer stored). False when a retry
 * took the key over after the lease: the caller must not commit.
 */
export async function holdKey(
  tx: Executor,
  scope: IdempotencyScope,
  lockToken: string,
  now: Date,
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE idempotency_keys SET locked_at = $7 WHERE ${SCOPE} AND lock_token = $6 RETURNING 1`,
    [...scopeParams(scope), lockToken, now],
  );
  return rows.length === 1;
}

/**
 * Records the answer as sent and lets go of the lock; only the request holding the lock may (a
 * presumed-dead one may not).
 */
export async function storeAnswer(
  db: Executor,
  scope: IdempotencyScope,
  lockToken: string,
  answer: StoredAnswer,
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys
        SET lock_token = NULL, locked_at = NULL, response_status = $7, response_headers = $8,
            response_body = $9
      WHERE ${SCOPE} AND lock_token = $6`,
    [...scopeParams(scope), lockToken, answer.status, JSON.stringify(answer.headers), answer.body],
  );
}

/**
 * Gives the key back (the request failed on our side): a retry runs the request again. A key whose
 * change committed (an answer was stored with it) is kept: running the request again would repeat it.
 */
export async function releaseKey(db: Executor, scope: IdempotencyScope, lockToken: string): Promise<void> {
  await db.query(
    `DELETE FROM idempotency_keys WHERE ${SCOPE} AND lock_token = $6 AND response_status IS NULL`,
    [...scopeParams(scope), lockToken],
  );
}

/** Erases (to '', which no sealed answer is) up to `batch` stored answers that carried a secret and are past their replay window. */
export async function eraseSecretAnswers(db: Executor, now: Date, batch = 500): Promise<number> {
  const rows = await db.query(
    `UPDATE idempotency_keys SET response_body = ''
      WHERE (project_id, environment, method, route, key) IN (
        SELECT project_id, environment, method, route, key FROM idempotency_keys
         WHERE response_body <> '' AND response_headers->>'cache-control' LIKE '%no-store%'
           AND created_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING 1`,
    [new Date(now.getTime() - SECRET_REPLAY_WINDOW_MS), batch],
  );
  return rows.length;
}

/** Deletes up to `batch` expired keys; several processes may sweep at once. Returns how many went. */
export async function deleteExpiredKeys(db: Executor, now: Date, batch = 500): Promise<number> {
  const rows = await db.query(
    `DELETE FROM idempotency_keys
      WHERE (project_id, environment, method, route, key) IN (
        SELECT project_id, environment, method, route, key FROM idempotency_keys
         WHERE expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING 1`,
    [now, batch],
  );
  return rows.length;
}

/**
 * Deletes idempotency keys past their 24 hours and erases answers carrying a secret past their replay
 * window, a batch of each per call; any number of processes may sweep.
 */
export async function sweepIdempotencyKeys(db: Executor, now: Date): Promise<number> {
  return (await eraseSecretAnswers(db, now)) + (await deleteExpiredKeys(db, now));
}
