/**
 * Sandbox simulation of a verification's life: any legal transition on request, with the same rules,
 * row lock and `customer.verification.updated` event as production. A rejection asked for without a
 * statusReason gets the sample reasons of the automatic sandbox outcomes.
 */

import type { Clock } from '../../core/clock.ts';
import { notFound } from '../../core/errors.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { decideVerification } from '../verifications/decide.ts';
import { acceptTerms } from '../verifications/kyb.ts';
import type { VerificationView } from '../verifications/presenter.ts';
import { type StatusReasonInput, statusReasonFor } from '../verifications/reasons.ts';
import { SAMPLE_FINAL_REJECTION, SAMPLE_TEMPORARY_REJECTION } from '../verifications/sandbox.ts';
import type { StatusReason, VerificationStatus } from '../verifications/state.ts';
import { findVerificationIdOfCustomer } from './repo.ts';

const SAMPLE_REASON: Partial<Record<VerificationStatus, StatusReason>> = {
  TEMPORARY_REJECTION: SAMPLE_TEMPORARY_REJECTION,
  FINAL_REJECTION: SAMPLE_FINAL_REJECTION,
};

export function createSandboxVerificationService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  async function force(
    tenant: Tenant,
    customerId: string,
    input: { status: VerificationStatus; statusReason?: StatusReasonInput | undefined },
  ): Promise<VerificationView> {
    const reason = statusReasonFor(input.status, input.statusReason, SAMPLE_REASON[input.status]);
    return db.transaction(async (tx) => {
      const id = await findVerificationIdOfCustomer(tx, tenant, customerId);
      if (!id) throw notFound('Customer');
      const at = clock();
      // the simulation stands in for the end customer, who accepts the terms on the way into review
      if (input.status === 'UNDER_VERIFICATION') await acceptTerms(tx, customerId, at);
      const { after } = await decideVerification(tx, id, input.status, reason, at);
      return after;
    });
  }

  return { force };
}
