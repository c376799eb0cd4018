/** Status changes of transfers and deposits, each with its event in the same database transaction. */
import type { FailureCode } from '../../core/failure-codes.ts';
import type { Executor } from '../../db/types.ts';
import type { ChainRegistry } from '../../rails/chains/registry.ts';
import { recordEvent } from '../events/outbox.ts';
import { presentChainTransaction } from './presenter.ts';
import {
  type ChainTransactionRow,
  type ChainTransactionStatus,
  insertChainTransaction,
  updateChainTransaction,
} from './repo.ts';

const tenantOf = (row: ChainTransactionRow) => ({ projectId: row.project_id, environment: row.environment });

/** Inserts a new transfer or deposit with its `transaction.created` event. */
export async function createChainTransaction(
  tx: Executor,
  chains: ChainRegistry,
  row: ChainTransactionRow,
): Promise<ChainTransactionRow> {
  await insertChainTransaction(tx, row);
  await recordEvent(tx, {
    tenant: tenantOf(row),
    type: 'transaction.created',
    resourceType: 'transaction',
    resourceId: row.id,
    data: presentChainTransaction(chains, row),
    at: row.created_at,
  });
  return row;
}

/**
 * Moves a locked PROCESSING transfer or deposit (or a deposit AWAITING_TRAVEL_RULE) on, with its
 * `transaction.updated` event.
 */
export async function moveChainTransaction(
  tx: Executor,
  chains: ChainRegistry,
  row: ChainTransactionRow,
  to: ChainTransactionStatus,
  at: Date,
  changes: { transactionHash?: string | null; failureReason?: string | null; failureCode?: FailureCode } = {},
): Promise<ChainTransactionRow> {
  if (row.status !== 'PROCESSING' && row.status !== 'AWAITING_TRAVEL_RULE') {
    throw new Error(`a ${row.status} transaction does not move to ${to}`);
  }
  const updated = await updateChainTransaction(tx, row.id, to, at, changes);
  await recordEvent(tx, {
    tenant: tenantOf(updated),
    type: 'transaction.updated',
    resourceType: 'transaction',
    resourceId: updated.id,
    data: presentChainTransaction(chains, updated),
    at,
  });
  return updated;
}

/** Reports a change of a transfer or deposit that keeps its status (a hold lifted, Travel Rule data added). */
export async function reportChainTransaction(
  tx: Executor,
  chains: ChainRegistry,
  row: ChainTransactionRow,
  at: Date,
): Promise<void> {
  await recordEvent(tx, {
    tenant: tenantOf(row),
    type: 'transaction.updated',
    resourceType: 'transaction',
    resourceId: row.id,
    data: presentChainTransaction(chains, row),
    at,
  });
}
