/**
 * A new transaction's row: what its creation decides, every other column empty, and a timeline that
 * starts at its first status. Both flows create their rows here, so a column added to transactions is
 * added once.
 */
import type { TransactionRow } from './repo.ts';

/** What every creation decides; anything else it knows (a charge, a quote's figures, an account) it may add. */
export type NewTransaction = Pick<
  TransactionRow,
  | 'id'
  | 'customer_id'
  | 'project_id'
  | 'environment'
  | 'type'
  | 'status'
  | 'currency'
  | 'amount'
  | 'target_currency'
  | 'fee_basis_points'
  | 'fee_flat'
  | 'fee_minimum'
  | 'partner_fee_basis_points'
  | 'partner_fee_flat'
  | 'limit_amount_brl'
> &
  Partial<Omit<TransactionRow, 'timeline' | 'created_at' | 'updated_at'>>;

export function newTransactionRow(fields: NewTransaction, at: Date): TransactionRow {
  return {
    rail: 'PIX',
    customer_account_id: null,
    pix_txid: null,
    br_code: null,
    expires_at: null,
    deposit_amount: null,
    deposit_end_to_end_id: null,
    deposited_at: null,
    rate: null,
    fee: null,
    net_amount: null,
    target_amount: null,
    platform_fee: null,
    partner_fee: null,
    exchange_rate_id: null,
    bank_account_id: null,
    purpose: null,
    memo: null,
    metadata: null,
    end_to_end_id: null,
    failure_reason: null,
    return_reason: null,
    refund_status: null,
    refund_amount: null,
    refund_failure_reason: null,
    refund_updated_at: null,
    blockchain: null,
    chain_send_id: null,
    transaction_hash: null,
    block_explorer_url: null,
    ...fields,
    timeline: [{ status: fields.status, at: at.toISOString() }],
    created_at: at,
    updated_at: at,
  };
}
