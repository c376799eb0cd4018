/**
 * Moves a verification to a new status under a row lock, refusing illegal moves, and records the
 * `customer.verification.updated` event in the same transaction. Shared by operator review, the hosted
 * page, and the sandbox simulation.
 */

import { AppError, notFound } from '../../core/errors.ts';
import type { Executor } from '../../db/types.ts';
import { recordEvent } from '../events/outbox.ts';
import { presentVerification, type VerificationView } from './presenter.ts';
import { lockVerification, updateVerificationStatus } from './repo.ts';
import { canTransition, emptyStatusReason, type StatusReason, type VerificationStatus } from './state.ts';

export async function transitionVerification(
  tx: Executor,
  verificationId: string,
  to: VerificationStatus,
  statusReason: StatusReason | undefined,
  at: Date,
): Promise<{ before: VerificationStatus; after: VerificationView }> {
  const row = await lockVerification(tx, verificationId);
  if (!row) throw notFound('Verification');
  if (!canTransition(row.status, to)) {
    throw new AppError('invalid_state_transition', `A verification cannot move from ${row.status} to ${to}`);
  }
  const reason = statusReason ?? emptyStatusReason();
  await updateVerificationStatus(tx, row.id, to, reason, at);
  const after = presentVerification({ ...row, status: to, status_reason: reason, updated_at: at });
  await recordEvent(tx, {
    tenant: { projectId: row.project_id, environment: row.environment },
    type: row.associated_party_id ? 'associated_party.verification.updated' : 'customer.verification.updated',
    resourceType: 'verification',
    resourceId: row.id,
    data: after,
    at,
  });
  return { before: row.status, after };
}

/**
 * A confirmed sanctions match ends a verification whatever its status, APPROVED included: FINAL_REJECTION
 * with the reject label SANCTIONS_MATCH, and its event. A verification already finally rejected is left.
 */
export async function rejectAfterSanctionsMatch(
  tx: Executor,
  verificationId: string,
  at: Date,
): Promise<{ before: VerificationStatus; after: VerificationView } | undefined> {
  const row = await lockVerification(tx, verificationId);
  if (!row) throw notFound('Verification');
  if (row.status === 'FINAL_REJECTION') return undefined;
  const reason: StatusReason = { rejectLabels: ['SANCTIONS_MATCH'], rejectSubLabels: [], documents: [] };
  await updateVerificationStatus(tx, row.id, 'FINAL_REJECTION', reason, at);
  const after = presentVerification({
    ...row,
    status: 'FINAL_REJECTION',
    status_reason: reason,
    updated_at: at,
  });
  await recordEvent(tx, {
    tenant: { projectId: row.project_id, environment: row.environment },
    type: 'customer.verification.updated',
    resourceType: 'verification',
    resourceId: row.id,
    data: after,
    at,
  });
  return { before: row.status, after };
}
