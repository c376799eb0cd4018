/**
 * Business verification (KYB): the requirements of every customer, and the settlement of a BUSINESS
 * customer's verification whenever it or one of its parties changes. Settlement runs in the transaction
 * of the change, after the customer's own verification row is locked (`lockCustomerVerification`), so
 * that every change to one customer's KYB state is serialised: two reviews approving the last two
 * parties at once approve the customer exactly once.
 */
import type { Executor } from '../../db/types.ts';
import * as repo from './kyb-repo.ts';
import {
  customerRequirements,
  finallyRejectedParty,
  missingForApproval,
  ownRequirements,
  type Requirement,
} from './kyb-rules.ts';
import type { StatusReason } from './state.ts';
import { transitionVerification } from './transition.ts';

export {
  acceptTerms,
  hasParties,
  lockCustomerVerification,
  requirementFacts,
  reviewApproved,
  setReviewApproved,
  termsSatisfied,
} from './kyb-repo.ts';
export { customerRequirements, type Requirement } from './kyb-rules.ts';

/** A customer's requirements from its facts (`requirementFacts`); none for an unknown customer. */
export function requirementsFrom(facts: repo.Facts | undefined): Requirement[] {
  return facts ? customerRequirements(facts.customer, facts.parties) : [];
}

/** The requirements of each customer among `ids` (absent for an unknown id). */
export async function requirementsOf(
  db: Executor,
  ids: readonly string[],
): Promise<Map<string, Requirement[]>> {
  const facts = await repo.readFacts(db, ids);
  return new Map([...facts].map(([id, fact]) => [id, requirementsFrom(fact)]));
}

/** What each customer among `ids` still lacks before its verification can be APPROVED. */
export async function missingOf(db: Executor, ids: readonly string[]): Promise<Map<string, string[]>> {
  const facts = await repo.readFacts(db, ids);
  return new Map([...facts].map(([id, fact]) => [id, missingForApproval(fact.customer, fact.parties)]));
}

/** The reason a customer's verification goes back to TEMPORARY_REJECTION: the party to replace. */
export function partyRejectionReason(party: { id: string; name: string }): StatusReason {
  return {
    rejectLabels: ['associated_party_rejected'],
    rejectSubLabels: [],
    documents: [
      {
        type: 'ASSOCIATED_PARTY',
        status: 'FINAL_REJECTION',
        comment: `The associated party ${party.name} (${party.id}) was finally rejected; replace it and submit again.`,
        rejectLabels: ['associated_party_rejected'],
      },
    ],
  };
}

/**
 * Moves a customer's verification waiting in UNDER_VERIFICATION on to where its facts now put it: back
 * to TEMPORARY_REJECTION when a party is finally rejected, to APPROVED when its own review is approved and
 * every UBO and a representative are. The caller holds the customer verification's lock.
 */
export async function settleCustomer(
  tx: Executor,
  customerId: string,
  at: Date,
): Promise<'APPROVED' | 'TEMPORARY_REJECTION' | null> {
  const verification = await repo.lockCustomerVerification(tx, customerId);
  if (verification?.status !== 'UNDER_VERIFICATION') return null;
  const facts = (await repo.readFacts(tx, [customerId])).get(customerId)!;
  const rejected = finallyRejectedParty(facts.parties);
  if (rejected) {
    await repo.setReviewApproved(tx, verification.id, null);
    await transitionVerification(
      tx,
      verification.id,
      'TEMPORARY_REJECTION',
      partyRejectionReason(rejected),
      at,
    );
    return 'TEMPORARY_REJECTION';
  }
  if (missingForApproval(facts.customer, facts.parties).length > 0) return null;
  await transitionVerification(tx, verification.id, 'APPROVED', undefined, at);
  return 'APPROVED';
}

/**
 * The requirements an owner's submission still lacks: for a customer its terms and own documents, for
 * an individual party its own documents. Empty when every one is SENT (or APPROVED).
 */
export async function unmetForSubmission(
  db: Executor,
  customerId: string,
  associatedPartyId: string | null,
): Promise<Requirement[]> {
  const facts = (await repo.readFacts(db, [customerId])).get(customerId);
  if (!facts) return [];
  let own: Requirement[];
  if (associatedPartyId === null) {
    own = customerRequirements(facts.customer, []).filter((item) => item.name !== 'REPRESENTATIVE');
  } else {
    const party = facts.parties.find((item) => item.id === associatedPartyId);
    if (!party?.verification) return [];
    own = ownRequirements('INDIVIDUAL', party.verification, party.id);
  }
  return own.filter((item) => item.status !== 'SENT' && item.status !== 'APPROVED');
}
