/**
 * Every status change of a verification goes through here (operator review, the hosted page, the API's
 * submission, the sandbox), so that the rules of business customers hold whoever moves what:
 * - the customer's own verification row is locked first, for a customer's and for its parties'
 *   verifications alike, which serialises every change to one customer's KYB state;
 * - a customer enters UNDER_VERIFICATION only with its terms accepted (customers asked for them);
 * - an approval of a BUSINESS customer's own documents is recorded, and the verification waits in
 *   UNDER_VERIFICATION until every UBO and a representative are approved (verifications/kyb.ts settles it);
 * - a party's change settles its customer in the same transaction.
 */
import { AppError, notFound } from '../../core/errors.ts';
import type { Executor } from '../../db/types.ts';
import {
  lockCustomerVerification,
  reviewApproved,
  setReviewApproved,
  settleCustomer,
  termsSatisfied,
} from './kyb.ts';
import { presentVerification, type VerificationView } from './presenter.ts';
import { findOwnedVerification, lockVerification } from './repo.ts';
import { canTransition, type StatusReason, type VerificationStatus } from './state.ts';
import { transitionVerification } from './transition.ts';

export type Decision = { before: VerificationStatus; after: VerificationView };

/** Moves verification `id` to `to`, under the customer's lock, settling the customer with its parties. */
export async function decideVerification(
  tx: Executor,
  id: string,
  to: VerificationStatus,
  reason: StatusReason | undefined,
  at: Date,
): Promise<Decision> {
  const owner = await findOwnedVerification(tx, id);
  if (!owner) throw notFound('Verification');
  await lockCustomerVerification(tx, owner.customer_id);

  if (owner.associated_party_id) {
    const decision = await transitionVerification(tx, id, to, reason, at);
    await settleCustomer(tx, owner.customer_id, at);
    return decision;
  }

  const row = (await lockVerification(tx, id))!;
  if (!canTransition(row.status, to)) {
    throw new AppError('invalid_state_transition', `A verification cannot move from ${row.status} to ${to}`);
  }
  if (to === 'UNDER_VERIFICATION' && !(await termsSatisfied(tx, owner.customer_id))) {
    throw new AppError(
      'requirements_not_met',
      'The customer has not accepted the terms of service (requirement TERMS_OF_SERVICE): ' +
        'send them the link of POST /customers/{id}/tos first',
    );
  }
  if (to !== 'APPROVED') {
    await setReviewApproved(tx, id, null);
    const decision = await transitionVerification(tx, id, to, reason, at);
    // a resubmission with a party already finally rejected goes straight back
    if (to === 'UNDER_VERIFICATION') await settleCustomer(tx, owner.customer_id, at);
    return decision;
  }
  if (await reviewApproved(tx, id)) {
    throw new AppError(
      'invalid_state_transition',
      "The customer's own documents are already approved; the verification waits for its associated parties",
    );
  }
  await setReviewApproved(tx, id, at);
  await settleCustomer(tx, owner.customer_id, at);
  return { before: row.status, after: presentVerification((await findOwnedVerification(tx, id))!) };
}
