/** Sandbox: the receiving bank sending a SUCCESS off-ramp's PIX back, through the same result as production. */
import type { Clock } from '../../core/clock.ts';
import { AppError, notFound } from '../../core/errors.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { presentTransaction, type TransactionView } from '../transactions/presenter.ts';
import { findTransaction } from '../transactions/read-service.ts';
import { applyPayoutResult } from './payout.ts';

export function createSandboxReturnService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  /** Simulates the receiving bank sending a SUCCESS off-ramp's PIX back. */
  return async function returnPayout(
    tenant: Tenant,
    id: string,
    reason: string | undefined,
  ): Promise<TransactionView> {
    const row = await findTransaction(db, tenant, id);
    if (!row) throw notFound('Transaction');
    if (row.type !== 'OFF_RAMP' || row.status !== 'SUCCESS' || !row.end_to_end_id) {
      throw new AppError(
        'invalid_state_transition',
        `Only a SUCCESS off-ramp can be returned; this one is ${row.status}`,
      );
    }
    const outcome = await db.transaction((tx) =>
      applyPayoutResult(
        tx,
        'sandbox',
        row.end_to_end_id!,
        { status: 'RETURNED', reason: reason ?? 'returned by the receiving institution (sandbox)' },
        clock(),
      ),
    );
    if (outcome !== 'APPLIED') {
      throw new AppError('invalid_state_transition', 'The off-ramp was returned already');
    }
    return presentTransaction((await findTransaction(db, tenant, id))!);
  };
}
