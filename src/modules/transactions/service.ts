import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError, invalidField, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { formatAmount, parseAmount } from '../../core/money.ts';
import { type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { buildPixBrCode, PIX_MAX_AMOUNT_CENTS, SANDBOX_PIX_KEY } from '../../lib/pix-brcode.ts';
import { randomBase62 } from '../../lib/secrets.ts';
import { lockCustomer } from '../customers/service.ts';
import { recordEvent } from '../events/outbox.ts';
import { onRampFee } from '../rates/convert.ts';
import { assertWithinLimits } from './limits.ts';
import { presentTransaction, type TransactionView } from './presenter.ts';
import * as repo from './repo.ts';
import type { TargetCurrency } from './state.ts';

export type CreateOnRampInput = {
  customerId: string;
  currency: 'BRL';
  amount: string;
  targetCurrency?: TargetCurrency | undefined;
};

const TXID_LENGTH = 25;

export function createTransactionService(deps: { db: Database; clock: Clock; config: Config }) {
  const { db, clock, config } = deps;
  const onRamp = config.onRamp;

  function validAmount(text: string): bigint {
    const amount = parseAmount(text);
    if (amount <= 0n) throw invalidField('/body/amount', 'must be greater than zero');
    if (amount > PIX_MAX_AMOUNT_CENTS) {
      throw invalidField(
        '/body/amount',
        `must be at most ${formatAmount(PIX_MAX_AMOUNT_CENTS)}, what a PIX charge carries`,
      );
    }
    const fee = onRampFee(amount, { basisPoints: onRamp.feeBasisPoints, flat: onRamp.feeFlat });
    if (fee >= amount)
      throw invalidField('/body/amount', `must be more than the fee of ${formatAmount(fee)}`);
    return amount;
  }

  function pixKeyFor(tenant: Tenant): string {
    if (onRamp.pixKey) return onRamp.pixKey;
    if (tenant.environment === 'sandbox') return SANDBOX_PIX_KEY;
    throw new AppError(
      'service_unavailable',
      'On-ramps are not available: the platform PIX key is not configured',
    );
  }

  async function create(tenant: Tenant, input: CreateOnRampInput): Promise<TransactionView> {
    const amount = validAmount(input.amount);
    const pixKey = pixKeyFor(tenant);
    return db.transaction(async (tx) => {
      const customer = await lockCustomer(tx, tenant, input.customerId);
      if (!customer) throw notFound('Customer');
      if (customer.verification_status !== 'APPROVED') {
        throw new AppError(
          'customer_not_approved',
          `The customer's verification is ${customer.verification_status}; on-ramps need it APPROVED`,
        );
      }
      const now = clock();
      await assertWithinLimits(tx, customer.id, config.defaultLimits[customer.type], amount, now);
      const txid = randomBase62(TXID_LENGTH);
      const row: repo.TransactionRow = {
        id: newId(),
        customer_id: customer.id,
        project_id: tenant.projectId,
        environment: tenant.environment,
        type: 'ON_RAMP',
        status: 'AWAITING_FUNDS',
        currency: 'BRL',
        amount,
        target_currency: input.targetCurrency ?? 'USDC',
        rail: 'PIX',
        pix_txid: txid,
        br_code: buildPixBrCode({
          pixKey,
          merchantName: onRamp.merchantName,
          merchantCity: onRamp.merchantCity,
          amount,
          txid,
        }),
        expires_at: new Date(now.getTime() + onRamp.depositExpiryMs),
        fee_basis_points: onRamp.feeBasisPoints,
        fee_flat: onRamp.feeFlat,
        deposit_amount: null,
        deposit_end_to_end_id: null,
        deposited_at: null,
        rate: null,
        fee: null,
        net_amount: null,
        target_amount: null,
        failure_reason: null,
        timeline: [{ status: 'AWAITING_FUNDS', at: now.toISOString() }],
        created_at: now,
        updated_at: now,
      };
      await repo.insertTransaction(tx, row);
      const view = presentTransaction(row);
      await recordEvent(tx, {
        tenant,
        type: 'transaction.updated',
        resourceType: 'transaction',
        resourceId: row.id,
        data: view,
        at: now,
      });
      return view;
    });
  }

  async function get(tenant: Tenant, id: string): Promise<TransactionView> {
    const row = await repo.findTransaction(db, tenant, id);
    if (!row) throw notFound('Transaction');
    return presentTransaction(row);
  }

  async function list(
    tenant: Tenant,
    filter: repo.ListFilter,
    page: PageRequest,
  ): Promise<PageResult<TransactionView>> {
    const { rows, total } = await repo.listTransactions(db, tenant, filter, page.limit, page.offset);
    return pageResult(page, rows.map(presentTransaction), total);
  }

  return { create, get, list };
}

export type TransactionService = ReturnType<typeof createTransactionService>;

/** What other modules (the PIX rail) may read of a transaction, found or locked within their transaction. */
export { findTransaction, lockTransaction, lockTransactionByTxid, type TransactionRow } from './repo.ts';
