/**
 * Moves a locked transaction to its next status: refuses moves its flow's state machine does not allow,
 * appends the step to the timeline, and records the `transaction.updated` event in the same database
 * transaction. Every status change goes through here.
 */

import { AppError } from '../../core/errors.ts';
import type { Executor } from '../../db/types.ts';
import { recordEvent } from '../events/outbox.ts';
import { releaseLimitUsage } from '../limits/usage.ts';
import { presentTransaction } from './presenter.ts';
import { type StepChanges, type TransactionRow, updateStep } from './repo.ts';
import { NOT_COUNTED, type StateMachine, type TransactionStatus } from './state.ts';

/** The columns a step may set beside the status (a failure's reason, a hash, a return's reason). */
export type { StepChanges };

export async function transitionTransaction(
  tx: Executor,
  machine: StateMachine,
  row: TransactionRow,
  to: TransactionStatus,
  at: Date,
  changes: StepChanges = {},
): Promise<TransactionRow> {
  if (machine.type !== row.type) throw new Error(`a ${row.type} moved by the ${machine.type} state machine`);
  if (!machine.transitions[row.status].includes(to)) {
    throw new AppError('invalid_state_transition', `A transaction cannot move from ${row.status} to ${to}`);
  }
  const updated = await updateStep(tx, row.id, to, at, changes);
  // A movement that fails or expires no longer counts against the customer's limits.
  if (NOT_COUNTED.includes(to) && !NOT_COUNTED.includes(row.status)) {
    await releaseLimitUsage(tx, row.customer_id, row.limit_amount_brl, row.created_at);
  }
  await recordEvent(tx, {
    tenant: { projectId: updated.project_id, environment: updated.environment },
    type: 'transaction.updated',
    resourceType: 'transaction',
    resourceId: updated.id,
    data: presentTransaction(updated),
    at,
  });
  return updated;
}
