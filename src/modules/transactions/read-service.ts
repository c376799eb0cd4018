/**
 * The read side every transaction type shares: one by id, a tenant's list and the staff's search, on-
 * and off-ramps merged with stablecoin transfers and deposits, newest first. What the modules that own
 * each flow may read and write of a transaction row is exported at the end.
 */
import { notFound } from '../../core/errors.ts';
import {
  cursorOf,
  listWindow,
  type PageRequest,
  type PageResult,
  pageResult,
} from '../../core/pagination.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { type ChainTransactionView, presentChainTransaction } from '../wallets/presenter.ts';
import {
  type ChainTransactionRow,
  chainTransactionPageReader,
  chainTransactionReader,
  listChainTransactions,
} from '../wallets/service.ts';
import { presentTransaction, type TransactionView } from './presenter.ts';
import type { RefundState, TransactionRow } from './repo.ts';
import * as repo from './repo.ts';

export type AnyTransactionView = TransactionView | ChainTransactionView;

export function createTransactionService(deps: { db: Database; chains: ChainRegistry }) {
  const { db, chains } = deps;
  const readTransaction = repo.transactionReader(db);
  const readChainTransaction = chainTransactionReader(db);
  async function get(tenant: Tenant, id: string): Promise<AnyTransactionView> {
    const row = await readTransaction({ tenant, id });
    if (row) return presentTransaction(row);
    const moved = await readChainTransaction({ tenant, id });
    if (moved) return presentChainTransaction(chains, moved);
    throw notFound('Transaction');
  }
  const readTransactionPage = repo.transactionPageReader(db);
  const readChainPage = chainTransactionPageReader(db);
  /**
   * A tenant's transactions, on- and off-ramps and stablecoin transfers and deposits merged newest first.
   * The partner's list (every customer's, or one customer's) reads its exact total from the counts the
   * database keeps; a list narrowed further (the dashboard's filters) counts what it finds.
   */
  async function list(
    tenant: Tenant,
    filter: repo.ListFilter,
    page: PageRequest,
  ): Promise<PageResult<AnyTransactionView>> {
    const { customerId, ...narrowing } = filter;
    if (Object.values(narrowing).some((value) => value !== undefined)) {
      const found = await search(
        { projectId: tenant.projectId, environment: tenant.environment },
        filter,
        page,
      );
      return { ...found, data: found.data.map((item) => item.transaction) };
    }
    const window = listWindow(page);
    const read = { tenant, customerId, limit: window.offset + window.limit, after: window.after };
    const [ramps, moves] = await Promise.all([readTransactionPage(read), readChainPage(read)]);
    const data = pageOfBoth(ramps.rows, moves, page).map(({ transaction }) => transaction);
    return pageResult(page, data, ramps.total ?? 0);
  }
  /**
   * The page's part of both tables' rows (each read up to the page's end), newest first, each with its
   * view: only the rows on the page are presented.
   */
  function pageOfBoth(ramps: repo.TransactionRow[], moves: ChainTransactionRow[], page: PageRequest) {
    const window = listWindow(page);
    const rows = [
      ...ramps.map((row) => ({ ramp: true as const, row })),
      ...moves.map((row) => ({ ramp: false as const, row })),
    ];
    rows.sort(
      ({ row: a }, { row: b }) =>
        b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    );
    return rows.slice(window.offset, window.offset + window.limit).map((found) => ({
      row: found.row,
      transaction: found.ramp
        ? (presentTransaction(found.row) as AnyTransactionView)
        : presentChainTransaction(chains, found.row),
    }));
  }
  /**
   * Transactions of every type, newest first, in a scope: one tenant (the dashboard's filtered search),
   * or any project and environment (the platform staff's search, which also finds one by its id).
   */
  async function search(
    scope: repo.Scope,
    filter: repo.ListFilter,
    page: PageRequest,
  ): Promise<PageResult<{ transaction: AnyTransactionView; projectId: string; environment: Environment }>> {
    const window = listWindow(page);
    const upTo = window.offset + window.limit;
    const narrowed = window.after ? { ...filter, after: window.after } : filter;
    const [ramps, moves] = await Promise.all([
      repo.listTransactions(db, scope, narrowed, upTo, 0),
      listChainTransactions(db, scope, narrowed, upTo),
    ]);
    const data = pageOfBoth(ramps.rows, moves.rows, page).map(({ row, transaction }) => ({
      transaction,
      projectId: row.project_id,
      environment: row.environment,
    }));
    return pageResult(page, data, ramps.total + moves.total, (item) => cursorOf(item.transaction));
  }
  return { get, list, search };
}

export type TransactionService = ReturnType<typeof createTransactionService>;

/** What the modules owning each flow (on-ramp, off-ramp) read and write of a transaction row. */
export type { RefundState, TransactionRow } from './repo.ts';

/** The tenant a row belongs to. */
export const tenantOf = (row: { project_id: string; environment: Environment }): Tenant => ({
  projectId: row.project_id,
  environment: row.environment,
});

/** Charges past their expiry still waiting for a deposit, locked and skipped by other workers. */
export function claimExpired(db: Executor, now: Date, limit: number): Promise<TransactionRow[]> {
  return repo.claimExpired(db, now, limit);
}

/** One transaction that settlement should carry forward, locked and skipped by other workers. */
export function claimInFlight(db: Executor): Promise<TransactionRow | undefined> {
  return repo.claimInFlight(db);
}

export function findTransaction(
  db: Executor,
  tenant: Tenant,
  id: string,
): Promise<TransactionRow | undefined> {
  return repo.findTransaction(db, tenant, id);
}

export function findTransactionById(db: Executor, id: string): Promise<TransactionRow | undefined> {
  return repo.findTransactionById(db, id);
}

/** The statement a flow inserts its new transaction rows with, combined into its own (a typed fact). */
export const insertTransactionsFact: typeof repo.insertTransactionsFact = repo.insertTransactionsFact;

/** Locks a transaction for a state change. */
export function lockTransaction(db: Executor, id: string): Promise<TransactionRow | undefined> {
  return repo.lockTransaction(db, id);
}

/** Locks the transaction a PIX charge's txid belongs to, in one environment. */
export function lockTransactionByTxid(
  db: Executor,
  environment: Environment,
  txid: string,
): Promise<TransactionRow | undefined> {
  return repo.lockTransactionByTxid(db, environment, txid);
}

/** Moves a charge's expiry to `at` (the sandbox's "expire now"); returns the new row. */
export function setExpiresAt(db: Executor, id: string, at: Date): Promise<TransactionRow> {
  return repo.setExpiresAt(db, id, at);
}

/** Records where the refund of an on-ramp stands; returns the new row. */
export function setRefundState(db: Executor, id: string, refund: RefundState): Promise<TransactionRow> {
  return repo.setRefundState(db, id, refund);
}
