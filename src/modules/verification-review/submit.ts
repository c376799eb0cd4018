/**
 * `POST /customers/{id}/verifications/{verificationId}/submit`: the API's counterpart of the hosted page's
 * submission, for partners who run their own onboarding. The documents uploaded through the API for the
 * verification's owner (the customer, or one of its associated parties) are attached to the verification
 * and it moves to UNDER_VERIFICATION, with the same records, event and review as the hosted page; only
 * from NOT_STARTED or TEMPORARY_REJECTION, and only when every requirement of the owner is SENT.
 */
import type { Clock } from '../../core/clock.ts';
import { AppError, notFound } from '../../core/errors.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { type LinkMinter, recordCustomerUpdated } from '../customers/service.ts';
import { VERIFICATION_DOCUMENT_TYPES } from '../documents/kinds.ts';
import { attachPendingDocuments } from '../documents/service.ts';
import { decideVerification } from '../verifications/decide.ts';
import { lockCustomerVerification, unmetForSubmission } from '../verifications/kyb.ts';
import type { VerificationView } from '../verifications/presenter.ts';
import { findOwnedVerification, lockVerification } from '../verifications/service.ts';
import { canTransition } from '../verifications/state.ts';

export function createSubmissionService(deps: { db: Database; clock: Clock; link: LinkMinter }) {
  const { db, clock, link } = deps;

  async function submit(
    tenant: Tenant,
    customerId: string,
    verificationId: string,
  ): Promise<VerificationView> {
    return db.transaction(async (tx) => {
      const at = clock();
      const owner = await findOwnedVerification(tx, verificationId);
      if (
        !owner ||
        owner.customer_id !== customerId.toLowerCase() ||
        owner.project_id !== tenant.projectId ||
        owner.environment !== tenant.environment
      ) {
        throw notFound('Verification');
      }
      await lockCustomerVerification(tx, owner.customer_id);
      const row = (await lockVerification(tx, verificationId))!;
      if (!canTransition(row.status, 'UNDER_VERIFICATION')) {
        throw new AppError(
          'invalid_state_transition',
          `A verification ${row.status} takes no submission (only NOT_STARTED or TEMPORARY_REJECTION)`,
        );
      }
      const partyId = owner.associated_party_id ?? null;
      const unmet = await unmetForSubmission(tx, owner.customer_id, partyId);
      if (unmet.length > 0) {
        throw new AppError(
          'requirements_not_met',
          `Not every requirement is SENT: ${unmet.map((item) => `${item.name} is ${item.status}`).join(', ')}`,
        );
      }
      await attachPendingDocuments(
        tx,
        owner.customer_id,
        partyId,
        verificationId,
        VERIFICATION_DOCUMENT_TYPES,
      );
      const { after } = await decideVerification(tx, verificationId, 'UNDER_VERIFICATION', undefined, at);
      await recordCustomerUpdated(tx, link, tenant, owner.customer_id, at);
      return after;
    });
  }

  return { submit };
}
