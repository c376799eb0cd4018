/**
 * Browser sessions of the web interfaces: a random token in an httpOnly cookie, stored only as its hash,
 * with a per-session CSRF token; sign-in throttling per account and per address, counted in the database
 * so that it holds across processes.
 */
import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import type { Database, Executor } from '../../db/types.ts';
import { randomBase62, sha256Hex } from '../../lib/secrets.ts';
import * as repo from './repo.ts';

export const SESSION_TTL_MS = 12 * 3_600_000;
export const MFA_PENDING_TTL_MS = 5 * 60_000;
export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 30;

export type Session = {
  tokenHash: string;
  csrfToken: string;
  mfaPending: boolean;
  user: repo.WebUserRow;
};

export async function openSession(
  db: Executor,
  clock: Clock,
  userId: string,
  mfaPending: boolean,
): Promise<{ token: string; csrfToken: string }> {
  const token = randomBase62(43);
  const csrfToken = randomBase62(32);
  const now = clock();
  await repo.insertSession(db, {
    token_hash: sha256Hex(token),
    user_id: userId,
    csrf_token: csrfToken,
    mfa_pending: mfaPending,
    created_at: now,
    expires_at: new Date(now.getTime() + (mfaPending ? MFA_PENDING_TTL_MS : SESSION_TTL_MS)),
  });
  return { token, csrfToken };
}

export async function resolveSession(
  db: Executor,
  clock: Clock,
  token: string | undefined,
): Promise<Session | null> {
  if (!token || !/^[0-9A-Za-z]{43}$/.test(token)) return null;
  const row = await repo.findLiveSession(db, sha256Hex(token), clock());
  if (!row) return null;
  return {
    tokenHash: row.token_hash,
    csrfToken: row.csrf_token,
    mfaPending: row.mfa_pending,
    user: row.user,
  };
}

export const closeSession = (db: Executor, session: Session) => repo.deleteSession(db, session.tokenHash);

/** An attempt counted before its check: its two rows (account, address) stay as failures unless released. */
export type SignInAttempt = { account: string; ids: [string, string] };

/**
 * Sign-in throttling that holds under concurrency: an attempt is counted before its password or code is
 * checked, in one transaction that serialises the attempts of the account and of the address (on every
 * process), so that no more than the limits are ever checked, however many arrive at once. An attempt
 * whose check succeeds is released; one that fails stays counted as a failure for the window.
 */
export function createSignInThrottle(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  /** Counts an attempt for this account and address; null when either failed too often lately. */
  async function attempt(account: string, address: string): Promise<SignInAttempt | null> {
    return db.transaction(async (tx) => {
      await repo.lockThrottleSubject(tx, 'account', account);
      await repo.lockThrottleSubject(tx, 'address', address);
      const at = clock();
      const since = new Date(at.getTime() - THROTTLE_WINDOW_MS);
      const byAccount = await repo.countFailures(tx, 'account', account, since);
      const byAddress = await repo.countFailures(tx, 'address', address, since);
      if (byAccount >= MAX_FAILURES_PER_ACCOUNT || byAddress >= MAX_FAILURES_PER_ADDRESS) return null;
      const ids: [string, string] = [newId(), newId()];
      await repo.insertFailure(tx, { id: ids[0], scope: 'account', subject: account, at });
      await repo.insertFailure(tx, { id: ids[1], scope: 'address', subject: address, at });
      return { account, ids };
    });
  }

  /** The attempt's check succeeded: it is no failure. */
  const passed = (attempt: SignInAttempt) => repo.deleteFailures(db, attempt.ids);

  /** The sign-in completed: the attempt and the account's earlier failures are forgotten. */
  async function succeeded(attempt: SignInAttempt): Promise<void> {
    await repo.deleteFailures(db, attempt.ids);
    await repo.clearFailures(db, 'account', attempt.account);
  }

  return { attempt, passed, succeeded };
}

/** The account key of the throttle: the surface and the e-mail address, hashed (no personal data kept). */
export const accountSubject = (surface: repo.Surface, email: string) =>
  sha256Hex(`${surface}:${email.trim().toLowerCase()}`);

/** Forgets expired sessions and sign-in failures older than the throttle window; safe on every process. */
export async function sweepStaleSessions(db: Executor, clock: Clock): Promise<number> {
  const now = clock();
  await repo.deleteStale(db, new Date(now.getTime() - THROTTLE_WINDOW_MS), now);
  return 0;
}
