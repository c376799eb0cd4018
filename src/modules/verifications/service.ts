/**
 * The verifications module's public surface for other modules: a customer's first verification is
 * created with the customer, in the same transaction; a verification is read, or locked in the caller's
 * transaction before a submission moves it.
 */
import type { Executor } from '../../db/types.ts';
import * as repo from './repo.ts';

export {
  findOwnedVerification,
  lockVerification,
  type VerificationRow,
  verificationReader,
} from './repo.ts';

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
