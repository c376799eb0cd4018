/**
 * Sandbox verification outcomes, chosen by the last character of the customer's (or the associated
 * party's) taxId and applied by a worker shortly after creation, through the same transitions and events as production:
 * `1` stays NOT_STARTED, `2` TEMPORARY_REJECTION, `3` FINAL_REJECTION, anything else APPROVED — each
 * passing through UNDER_VERIFICATION first.
 */

import type { Clock } from '../../core/clock.ts';
import type { Database, Executor } from '../../db/types.ts';
import { decideVerification } from './decide.ts';
import { acceptTerms, lockCustomerVerification } from './kyb.ts';
import {
  clearSandboxDue,
  findDueSandboxVerifications,
  lockDueSandboxVerification,
  tryLockSandboxCustomer,
} from './repo.ts';
import type { StatusReason, VerificationStatus } from './state.ts';

export type SandboxOutcome = { status: VerificationStatus; statusReason?: StatusReason } | null;

export const SAMPLE_TEMPORARY_REJECTION: StatusReason = {
  rejectLabels: ['screenshot', 'unsatisfactory_photos'],
  rejectSubLabels: ['proofOfAddress_listOfDocs', 'badPhoto'],
  documents: [
    {
      type: 'PASSPORT',
      status: 'TEMPORARY_REJECTION',
      comment: 'The photo of the passport is a screenshot; upload a photo of the document itself.',
      rejectLabels: ['screenshot'],
    },
  ],
};

export const SAMPLE_FINAL_REJECTION: StatusReason = {
  rejectLabels: ['fraudulent_patterns'],
  rejectSubLabels: [],
  documents: [],
};

export function sandboxOutcome(taxId: string): SandboxOutcome {
  switch (taxId.trim().slice(-1)) {
    case '1':
      return null;
    case '2':
      return { status: 'TEMPORARY_REJECTION', statusReason: SAMPLE_TEMPORARY_REJECTION };
    case '3':
      return { status: 'FINAL_REJECTION', statusReason: SAMPLE_FINAL_REJECTION };
    default:
      return { status: 'APPROVED' };
  }
}

/**
 * Applies every due outcome; returns how many verifications it settled. Safe on several processes.
 *
 * Each outcome is one transaction that locks as every change to a customer's verifications does: the
 * customer's row first (as the hosted page, the terms and a party's creation do), then the customer's own
 * verification (as a review does, `decideVerification`), then the verification decided. A worker that
 * claimed the verification first, then waited for its customer, closed a cycle with a review holding the
 * customer and waiting for that verification. A customer another transaction holds is left for the next turn.
 */
export async function applyDueSandboxOutcomes(db: Database, clock: Clock, batch = 50): Promise<number> {
  const due = await findDueSandboxVerifications(db, clock(), batch);
  let settled = 0;
  for (const candidate of due) {
    settled += await db.transaction(async (tx) => {
      if (!(await tryLockSandboxCustomer(tx, candidate.customer_id))) return 0;
      await lockCustomerVerification(tx, candidate.customer_id);
      const verification = await lockDueSandboxVerification(tx, candidate.id, clock());
      if (!verification) return 0;
      await clearSandboxDue(tx, verification.id);
      await applyOutcome(tx, verification, clock());
      return 1;
    });
  }
  return settled;
}

/** The simulated outcome of one verification, chosen by its owner's taxId. */
async function applyOutcome(
  tx: Executor,
  verification: {
    id: string;
    customer_id: string;
    associated_party_id?: string | null;
    status: string;
    tax_id: string;
  },
  at: Date,
): Promise<void> {
  const outcome = sandboxOutcome(verification.tax_id);
  if (!outcome || verification.status !== 'NOT_STARTED') return;
  // The simulated customer accepts the terms on the way, as a real one does on the hosted page. A
  // business's simulated approval is its own documents' review: like a production one, it waits in
  // UNDER_VERIFICATION until every UBO and a representative are approved (decideVerification).
  if ((verification.associated_party_id ?? null) === null)
    await acceptTerms(tx, verification.customer_id, at);
  await decideVerification(tx, verification.id, 'UNDER_VERIFICATION', undefined, at);
  await decideVerification(tx, verification.id, outcome.status, outcome.statusReason, at);
}
