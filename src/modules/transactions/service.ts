import type { Config } from '../../config.ts';
import type { Clock } from '../../core/clock.ts';
import { AppError, invalidField, notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { type PageRequest, type PageResult, pageResult } from '../../core/pagination.ts';
import type { Database } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { formatAmount, parseAmount } from '../../lib/money.ts';
import { buildPixBrCode, PIX_MAX_AMOUNT_CENTS, SANDBOX_PIX_KEY } from '../../lib/pix-brcode.ts';
import { randomBase62 } from '../../lib/secrets.ts';
import { lockCustomer } from '../customers/repo.ts';
import { recordEvent } from '../events/outbox.ts';
import type { Blockchain } from '../rails/chains/networks.ts';
import type { ChainRegistry } from '../rails/chains/registry.ts';
import { onRampFee } from '../rates/convert.ts';
import { type ChainTransactionView, presentChainTransaction } from '../wallets/presenter.ts';
import { findChainTransaction, listChainTransactions } from '../wallets/repo.ts';
import { assertWithinLimits } from './limits.ts';
import { presentTransaction, type TransactionView } from './presenter.ts';
import * as repo from './repo.ts';
import type { TargetCurrency } from './state.ts';

export type AnyTransactionView = TransactionView | ChainTransactionView;

export type CreateOnRampInput = {
  customerId: string;
  currency: 'BRL';
  amount: string;
  targetCurrency?: TargetCurrency | undefined;
  blockchain?: Blockchain | undefined;
};

const TXID_LENGTH = 25;

export function createTransactionService(deps: {
  db: Database;
  clock: Clock;
  config: Config;
  chains: ChainRegistry;
}) {
  const { db, clock, config, chains } = deps;
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
    const targetCurrency = input.targetCurrency ?? 'USDC';
    const blockchain = input.blockchain ?? chains.config.defaultChain;
    if (!chains.get(tenant.environment, blockchain).supports(targetCurrency)) {
      throw invalidField('/body/blockchain', `${targetCurrency} is not available on ${blockchain}`);
    }
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
        target_currency: targetCurrency,
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
        blockchain,
        chain_send_id: null,
        transaction_hash: null,
        block_explorer_url: null,
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

  async function get(tenant: Tenant, id: string): Promise<AnyTransactionView> {
    const row = await repo.findTransaction(db, tenant, id);
    if (row) return presentTransaction(row);
    const moved = await findChainTransaction(db, tenant, id);
    if (moved) return presentChainTransaction(chains, moved);
    throw notFound('Transaction');
  }

  /** On-ramps and stablecoin transfers/deposits, merged newest first. */
  async function list(
    tenant: Tenant,
    filter: repo.ListFilter,
    page: PageRequest,
  ): Promise<PageResult<AnyTransactionView>> {
    const upTo = page.offset + page.limit;
    const [ramps, moves] = await Promise.all([
      repo.listTransactions(db, tenant, filter, upTo, 0),
      listChainTransactions(db, tenant, filter.customerId, upTo),
    ]);
    const merged = [
      ...ramps.rows.map((row) => ({
        at: row.created_at,
        id: row.id,
        view: presentTransaction(row) as AnyTransactionView,
      })),
      ...moves.rows.map((row) => ({
        at: row.created_at,
        id: row.id,
        view: presentChainTransaction(chains, row),
      })),
    ].sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const data = merged.slice(page.offset, upTo).map((item) => item.view);
    return pageResult(page, data, ramps.total + moves.total);
  }

  return { create, get, list };
}

export type TransactionService = ReturnType<typeof createTransactionService>;
