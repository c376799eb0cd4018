/**
 * Sandbox: the receiving bank sending a SUCCESS off-ramp's payment back, through the same result as
 * production: a PIX devolução, an ACH return with its Nacha code (`code`, R01 unless given), or a wire's
 * reversal. A sandbox pointed at Increase's own sandbox returns with Increase's simulation route instead.
 */
import type { Clock } from '../../core/clock.ts';
import { AppError, invalidField, notFound } from '../../core/errors.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { PayoutResult } from '../../rails/fiat-rail.ts';
import { achReturnReasonText } from '../../rails/fiat-rails.ts';
import { presentTransaction, type TransactionView } from '../transactions/presenter.ts';
import { findTransaction } from '../transactions/read-service.ts';
import { applyPayoutResult } from './payout.ts';
import { offRampPayoutOf, type PayoutRow } from './payout-repo.ts';

/** The code an ACH return carries when the partner names none: R01, insufficient funds. */
const DEFAULT_ACH_RETURN_CODE = 'R01';

export type SandboxReturn = { reason?: string | undefined; code?: string | undefined };

/** What the receiving bank reports, as the payout's rail reports a return. */
function returnOf(payout: PayoutRow, input: SandboxReturn): Extract<PayoutResult, { status: 'RETURNED' }> {
  if (payout.rail !== 'ACH' && input.code !== undefined) {
    throw invalidField(
      '/body/code',
      payout.rail === 'WIRE'
        ? 'a wire is reversed, without a return code; only an ACH payout is returned with one'
        : 'a PIX is returned without a code; only an ACH payout is returned with one',
    );
  }
  if (payout.rail === 'PIX') {
    return { status: 'RETURNED', reason: input.reason ?? 'returned by the receiving institution (sandbox)' };
  }
  if (payout.rail === 'WIRE') {
    return {
      status: 'RETURNED',
      reason: input.reason ?? 'the wire was reversed by the receiving bank (sandbox)',
    };
  }
  const code = (input.code ?? DEFAULT_ACH_RETURN_CODE).toUpperCase();
  const text = achReturnReasonText(code);
  if (!text)
    throw invalidField('/body/code', 'is not a Nacha return code Increase reports (R01, R02, R03, …)');
  return {
    status: 'RETURNED',
    reason: input.reason ?? text,
    code,
  };
}

export function createSandboxReturnService(deps: {
  db: Database;
  clock: Clock;
  /** The sandbox's US bank is Increase's sandbox, and its PIX a PSP's homologation: they return on their own. */
  bankIsIncrease: boolean;
  pixIsPsp: boolean;
}) {
  const { db, clock } = deps;

  /** Simulates the receiving bank sending a SUCCESS off-ramp's payment back. */
  return async function returnPayout(
    tenant: Tenant,
    id: string,
    input: SandboxReturn,
  ): Promise<TransactionView> {
    const row = await findTransaction(db, tenant, id);
    if (!row) throw notFound('Transaction');
    const payout = row.type === 'OFF_RAMP' ? await offRampPayoutOf(db, row.id) : undefined;
    if (row.type !== 'OFF_RAMP' || row.status !== 'SUCCESS' || !payout) {
      throw new AppError(
        'invalid_state_transition',
        `Only a SUCCESS off-ramp can be returned; this one is ${row.status}`,
      );
    }
    const result = returnOf(payout, input);
    if (payout.rail === 'PIX' && deps.pixIsPsp) {
      throw new AppError(
        'invalid_state_transition',
        "This sandbox's PIX goes through a PSP's homologation environment: the PSP reports returns itself",
      );
    }
    if (payout.rail !== 'PIX' && deps.bankIsIncrease) {
      throw new AppError(
        'invalid_state_transition',
        "This sandbox's US bank is Increase's sandbox: return the transfer with its simulation route (POST /simulations/ach_transfers/{id}/return)",
      );
    }
    const outcome = await db.transaction((tx) =>
      applyPayoutResult(tx, 'sandbox', payout.end_to_end_id, result, clock()),
    );
    if (outcome !== 'APPLIED') {
      throw new AppError('invalid_state_transition', 'The off-ramp was returned already');
    }
    return presentTransaction((await findTransaction(db, tenant, id))!);
  };
}
