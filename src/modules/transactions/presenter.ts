import { formatDecimal, formatDecimalTrimmed } from '../../core/decimal.ts';
import { formatAmount } from '../../core/money.ts';
import { RATE_SCALE, STABLECOIN_SCALE } from '../rates/convert.ts';
import type { TransactionRow } from './repo.ts';

function receipt(row: TransactionRow) {
  if (row.status !== 'SUCCESS' || row.rate === null || row.fee === null) return null;
  return {
    sourceCurrency: row.currency,
    sourceAmount: formatAmount(row.amount),
    fee: formatAmount(row.fee),
    netAmount: formatAmount(row.net_amount!),
    rate: formatDecimalTrimmed(row.rate, RATE_SCALE),
    targetCurrency: row.target_currency,
    targetAmount: formatDecimal(row.target_amount!, STABLECOIN_SCALE),
  };
}

/** A transaction as the API answers it. */
export function presentTransaction(row: TransactionRow) {
  return {
    id: row.id,
    customerId: row.customer_id,
    type: row.type,
    status: row.status,
    request: {
      currency: row.currency,
      amount: formatAmount(row.amount),
      targetCurrency: row.target_currency,
    },
    depositInstructions: {
      rail: row.rail,
      brCode: row.br_code,
      amount: formatAmount(row.amount),
      currency: row.currency,
      expiresAt: row.expires_at.toISOString(),
    },
    receipt: receipt(row),
    failureReason: row.failure_reason,
    timeline: row.timeline.map((step) => ({ status: step.status, at: step.at })),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export type TransactionView = ReturnType<typeof presentTransaction>;
