/**
 * Sandbox verification outcomes, chosen by the last character of the customer's (or the associated
 * party's) taxId and applied by a worker shortly after creation, through the same transitions and events as production:
 * `1` stays NOT_STARTED, `2` TEMPORARY_REJECTION, `3` FINAL_REJECTION, anything else APPROVED — each
 * passing through UNDER_VERIFICATION first.
 */

import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../db/types.ts';
import { decideVerification } from './decide.ts';
import { acceptTerms } from './kyb.ts';
import { claimDueSandboxVerifications, clearSandboxDue } from './repo.ts';
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

/** Applies every due outcome; returns how many verifications it settled. Safe on several processes. */
export async function applyDueSandboxOutcomes(db: Database, clock: Clock, batch = 50): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await claimDueSandboxVerifications(tx, clock(), batch);
    for (const verification of due) {
      await clearSandboxDue(tx, verification.id);
      const outcome = sandboxOutcome(verification.tax_id);
      if (!outcome || verification.status !== 'NOT_STARTED') continue;
      const at = clock();
      const party = verification.associated_party_id ?? null;
      // The simulated customer accepts the terms on the way, as a real one does on the hosted page. A
      // business's simulated approval is its own documents' review: like a production one, it waits in
      // UNDER_VERIFICATION until every UBO and a representative are approved (decideVerification).
      if (party === null) await acceptTerms(tx, verification.customer_id, at);
      await decideVerification(tx, verification.id, 'UNDER_VERIFICATION', undefined, at);
      await decideVerification(tx, verification.id, outcome.status, outcome.statusReason, at);
    }
    return due.length;
  });
}
