/**
 * Settlement of an off-ramp, one step per database transaction under the transaction's row lock:
 * - TRANSFERRING_STABLECOIN → TRADING: the reserved balance reaches the conversion desk;
 * - TRADING → TRANSFERRING_FIAT: the fees are booked, the rest converted at the figures fixed when the
 *   off-ramp was created, and the PIX payout is recorded with its end-to-end id for the rail to send.
 * TRANSFERRING_FIAT waits for the payout's result (see rails/pix/payout.ts).
 */
import type { Config } from '../../config.ts';
import type { Executor } from '../../db/types.ts';
import { offRampConverted, offRampFee } from '../ledger/off-ramp-postings.ts';
import { postJournal } from '../ledger/service.ts';
import { endToEndId, sandboxEndToEndId } from '../rails/pix/end-to-end-id.ts';
import { insertPayout } from '../rails/pix/service.ts';
import { type TransactionRow, tenantOf } from './repo.ts';
import { transitionTransaction } from './transition.ts';

export function newEndToEndId(config: Config, row: { environment: string }, at: Date): string {
  return row.environment === 'sandbox' || !config.moneyOut.pixIspb
    ? sandboxEndToEndId(at)
    : endToEndId(config.moneyOut.pixIspb, at);
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
    entries: offRampConverted(row.currency, row.net_amount!, row.target_amount!),
  });
  const e2e = newEndToEndId(config, row, at);
  await insertPayout(tx, {
    end_to_end_id: e2e,
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
    created_at: at,
    updated_at: at,
  });
  return transitionTransaction(tx, row, 'TRANSFERRING_FIAT', at, { end_to_end_id: e2e });
}

export async function offRampStep(
  tx: Executor,
  config: Config,
  row: TransactionRow,
  at: Date,
): Promise<TransactionRow> {
  switch (row.status) {
    case 'TRANSFERRING_STABLECOIN':
      return transitionTransaction(tx, row, 'TRADING', at);
    case 'TRADING':
      return tradeOffRamp(tx, config, row, at);
    default:
      return row;
  }
}
