/**
 * Wallets: every APPROVED customer has one per blockchain, all derived from the environment's HD seed
 * at the customer's own index, created together the first time they are needed. Balances per chain come
 * from the ledger, so that they always add up to the customer's balances.
 */

import { BLOCKCHAINS, type Blockchain } from '../../core/currencies.ts';
import { formatDecimal } from '../../core/decimal.ts';
import { notFound } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import type { ListFilter, ListPageRead } from '../../db/transaction-filter.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { type CustomerRow, findCustomer } from '../customers/service.ts';
import * as repo from './repo.ts';
import {
  type ChainTransactionRow,
  insertWallets,
  nextHdIndex,
  type WalletRow,
  walletBalances,
  walletsOf,
} from './repo.ts';

/** The customer's wallets, created on first use (call under the customer's row lock, or accept a race). */
export async function ensureWallets(
  tx: Executor,
  chains: ChainRegistry,
  customer: Pick<CustomerRow, 'id' | 'project_id' | 'environment'>,
  at: Date,
): Promise<WalletRow[]> {
  const existing = await walletsOf(tx, customer.id);
  if (existing.length === BLOCKCHAINS.length) return existing;
  const index = existing[0]?.hd_index ?? (await nextHdIndex(tx));
  const rows: WalletRow[] = BLOCKCHAINS.filter((chain) => !existing.some((w) => w.blockchain === chain)).map(
    (blockchain) => ({
      id: newId(),
      customer_id: customer.id,
      project_id: customer.project_id,
      environment: customer.environment,
      blockchain,
      address: chains.get(customer.environment, blockchain).addressAt(index),
      hd_index: index,
      created_at: at,
    }),
  );
  await insertWallets(tx, rows);
  return walletsOf(tx, customer.id);
}

export function createWalletService(deps: { db: Database; chains: ChainRegistry; clock: () => Date }) {
  const { db, chains, clock } = deps;
  const defaultChain = chains.config.defaultChain;

  async function list(tenant: Tenant, customerId: string) {
    const customer = await findCustomer(db, tenant, customerId);
    if (!customer) throw notFound('Customer');
    if (customer.verification_status !== 'APPROVED') return { data: [] };
    const wallets = await db.transaction((tx) => ensureWallets(tx, chains, customer, clock()));
    const balances = await walletBalances(db, customer.id, defaultChain);
    const order = (chain: Blockchain) => BLOCKCHAINS.indexOf(chain);
    return {
      data: wallets
        .sort((a, b) => order(a.blockchain) - order(b.blockchain))
        .map((wallet) => {
          const adapter = chains.get(tenant.environment, wallet.blockchain);
          return {
            blockchain: wallet.blockchain,
            address: wallet.address,
            blockExplorerUrl: adapter.addressUrl(wallet.address),
            isDefault: wallet.blockchain === defaultChain,
            balances: [
              ...new Set([
                ...adapter.currencies,
                ...balances.filter((b) => b.blockchain === wallet.blockchain).map((b) => b.currency),
              ]),
            ]
              .sort()
              .map((currency) => {
                const held = balances.find(
                  (b) => b.blockchain === wallet.blockchain && b.currency === currency,
                );
                return {
                  currency,
                  amount: formatDecimal(held?.amount ?? 0n, 6),
                  updatedAt: (held?.updated_at ?? wallet.created_at).toISOString(),
                };
              }),
          };
        }),
    };
  }

  return { list };
}
export type { ChainTransactionRow } from './repo.ts';

/**
 * The newest `limit` transfers and deposits of a partner's list (the tenant's, or one customer's, on
 * either side of a transfer), coalesced with the pages read meanwhile; the list's total comes with its
 * ramps (`transactionPageReader`).
 */
export function chainTransactionPageReader(
  db: Executor,
): (read: ListPageRead) => Promise<ChainTransactionRow[]> {
  return repo.chainTransactionPageReader(db);
}

/** Reads one transfer or deposit of the tenant, coalesced with the reads made meanwhile. */
export function chainTransactionReader(
  db: Executor,
): (read: { tenant: Tenant; id: string }) => Promise<ChainTransactionRow | undefined> {
  return repo.chainTransactionReader(db);
}

export function listChainTransactions(
  db: Executor,
  scope: { projectId?: string | undefined; environment?: Environment | undefined },
  filter: ListFilter,
  limit: number,
): Promise<{ rows: ChainTransactionRow[]; total: number }> {
  return repo.listChainTransactions(db, scope, filter, limit);
}
