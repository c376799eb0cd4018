/**
 * The verifications module's public surface for other modules: a customer's first verification is
 * created with the customer, in the same transaction; a verification is read, or locked in the caller's
 * transaction before a submission moves it.
 */
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { VerificationRow } from './repo.ts';
import * as repo from './repo.ts';

export type { VerificationRow } from './repo.ts';

/** A verification of the tenant by id, a customer's or one of its parties'. */
export function findOwnedVerification(db: Executor, id: string): Promise<VerificationRow | undefined> {
  return repo.findOwnedVerification(db, id);
}

/** Locks the verification row for a state change. */
export function lockVerification(db: Executor, id: string): Promise<VerificationRow | undefined> {
  return repo.lockVerification(db, id);
}

/**
 * Reads one verification of a customer of the tenant, the customer's own or one of its associated
 * parties' (whose row names its party, not the customer: the party's customer is matched), coalesced
 * with the reads made meanwhile (`read-batches.ts`).
 */
export function verificationReader(
  db: Executor,
): (read: { tenant: Tenant; customerId: string; id: string }) => Promise<VerificationRow | undefined> {
  return repo.verificationReader(db);
}

/**
 * Opens a verification (a customer's or an associated party's first), in the caller's transaction;
 * `sandbox_due_at`: when the sandbox decides its outcome (null in production).
 */
export async function openVerification(
  tx: Executor,
  row: repo.VerificationRow & { sandbox_due_at: Date | null },
): Promise<void> {
  await repo.insertVerification(tx, row);
}
