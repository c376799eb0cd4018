/**
 * Settlement of an off-ramp, one step per database transaction under the transaction's row lock:
 * - TRANSFERRING_STABLECOIN → TRADING: the reserved balance reaches the conversion desk;
 * - TRADING → TRANSFERRING_FIAT: the fees are booked, the rest converted at the figures fixed when the
 *   off-ramp was created, and the payout is recorded for the rail to send: over PIX with its end-to-end
 *   id (BRL), over ACH or wire with the key derived from the off-ramp (USD).
 * TRANSFERRING_FIAT waits for the payout's result (see payout.ts).
 */
import type { Config } from '../../config.ts';
import { newId } from '../../core/ids.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';
import { derivedPaymentKey, simulatedPaymentId, usdPayoutKey } from '../../rails/fiat-rails.ts';
import { offRampConverted, offRampFee, type PayoutCurrency } from '../ledger/off-ramp-postings.ts';
import { postJournal } from '../ledger/service.ts';
import { type SettlementDeps, type SettlementStep, settleNow } from '../transactions/in-flight.ts';
import { type TransactionRow, tenantOf } from '../transactions/read-service.ts';
import { insertPayout } from './payout-repo.ts';
import { moveOffRamp } from './state.ts';

/**
 * The key of a new refund payout: with a PSP, the devolução id Ponte gives it (the PSP assigns the
 * end-to-end id); simulated, its end-to-end id.
 */
export function newRefundKey(config: Config, row: { environment: Environment }, at: Date): string {
  return derivedPaymentKey(config, row.environment, newId()) ?? simulatedPaymentId(at);
}

/**
 * The key of an off-ramp's payout: with a PSP, the idEnvio derived from the off-ramp's id, so that a
 * resend after a crash or a timeout is the same payment; simulated, the end-to-end id it was given.
 */
export function offRampPayoutKey(config: Config, row: TransactionRow): string {
  if (row.rail !== 'PIX') return usdPayoutKey(row.id);
  return derivedPaymentKey(config, row.environment, row.id) ?? row.end_to_end_id!;
}

/** The key a new payout is recorded under, and whether the transaction carries it as its end-to-end id. */
function newPayoutKey(config: Config, row: TransactionRow, at: Date): { key: string; shown: boolean } {
  if (row.rail !== 'PIX') return { key: usdPayoutKey(row.id), shown: false };
  // with a PSP, the end-to-end id is the PSP's, recorded when it answers
  const derived = derivedPaymentKey(config, row.environment, row.id);
  return derived === null ? { key: simulatedPaymentId(at), shown: true } : { key: derived, shown: false };
}

async function tradeOffRamp(tx: Executor, config: Config, row: TransactionRow, at: Date) {
  const common = { tenant: tenantOf(row), transactionId: row.id, reference: row.id, at };
  if (row.fee! > 0n) {
    await postJournal(tx, {
      ...common,
      kind: 'FEE',
      entries: offRampFee(row.currency, row.platform_fee!, row.partner_fee!),
    });
  }
  await postJournal(tx, {
    ...common,
    kind: 'CONVERSION',
    entries: offRampConverted(
      row.currency,
      row.net_amount!,
      row.target_amount!,
      row.target_currency as PayoutCurrency,
    ),
  });
  const { key, shown } = newPayoutKey(config, row, at);
  await insertPayout(tx, {
    end_to_end_id: key,
    environment: row.environment,
    transaction_id: row.id,
    kind: 'OFF_RAMP',
    amount: row.target_amount!,
    bank_account_id: row.bank_account_id,
    refunded_end_to_end_id: null,
    status: 'PENDING',
    attempts: 0,
    next_attempt_at: at,
    failure_reason: null,
    rail: row.rail,
    currency: row.target_currency as PayoutCurrency,
    created_at: at,
    updated_at: at,
  });
  return moveOffRamp(tx, row, 'TRANSFERRING_FIAT', at, shown ? { end_to_end_id: key } : {});
}

/** The next settlement step of a locked off-ramp; one not in flight is left alone. */
export function offRampStep(config: Config): SettlementStep {
  return (tx, row, at) => {
    switch (row.status) {
      case 'TRANSFERRING_STABLECOIN':
        return moveOffRamp(tx, row, 'TRADING', at);
      case 'TRADING':
        return tradeOffRamp(tx, config, row, at);
      default:
        return Promise.resolve(row);
    }
  };
}

/** Runs an off-ramp's remaining settlement steps, for the request that created it. */
export function settleOffRamp(deps: SettlementDeps & { config: Config }, id: string): Promise<void> {
  return settleNow(deps, id, offRampStep(deps.config));
}
