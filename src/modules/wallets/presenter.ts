/** Stablecoin transfers and deposits as the API answers them: the same shape as every transaction. */
import { formatDecimal } from '../../core/decimal.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import type { ChainTransactionRow } from './repo.ts';

const SCALE = 6;

/** `receipt.blockchain`: where the movement is on chain (null hash: it moved in the ledger only). */
export function blockchainReceipt(
  chains: ChainRegistry,
  row: { environment: ChainTransactionRow['environment']; blockchain: ChainTransactionRow['blockchain'] },
  hash: string | null,
) {
  const adapter = chains.get(row.environment, row.blockchain);
  return {
    network: row.blockchain,
    transactionHash: hash,
    blockExplorerUrl: hash === null ? null : adapter.transactionUrl(hash),
  };
}

function receipt(chains: ChainRegistry, row: ChainTransactionRow) {
  // a failed transfer that reached the chain (it reverted there) shows where; anything else failed shows none
  if (row.status === 'FAILED' && (row.type !== 'TRANSFER' || row.transaction_hash === null)) return null;
  if (row.status === 'PROCESSING' && row.transaction_hash === null) return null;
  const amount = formatDecimal(row.amount, SCALE);
  const zero = formatDecimal(0n, SCALE);
  return {
    sourceCurrency: row.currency,
    sourceAmount: amount,
    fee: zero,
    fees: {
      platform: { amount: zero, currency: row.currency },
      partner: { amount: zero, currency: row.currency },
    },
    netAmount: amount,
    rate: '1',
    targetCurrency: row.currency,
    targetAmount: amount,
    blockchain: blockchainReceipt(chains, row, row.transaction_hash),
  };
}

export function presentChainTransaction(chains: ChainRegistry, row: ChainTransactionRow) {
  return {
    id: row.id,
    customerId: row.customer_id,
    type: row.type,
    status: row.status,
    request: {
      currency: row.currency,
      amount: formatDecimal(row.amount, SCALE),
      blockchain: row.blockchain,
      from: row.type === 'TRANSFER' ? row.customer_id : row.from_address,
      to: row.type === 'TRANSFER' ? (row.to_customer_id ?? row.to_address) : row.customer_id,
    },
    depositInstructions: null,
    receipt: receipt(chains, row),
    failureReason: row.failure_reason,
    failureCode: row.failure_code ?? null,
    timeline: row.timeline.map((step) => ({ status: step.status, at: step.at })),
    ...(row.metadata === null ? {} : { metadata: row.metadata }),
    ...(row.travel_rule ? { travelRule: row.travel_rule } : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export type ChainTransactionView = ReturnType<typeof presentChainTransaction>;
