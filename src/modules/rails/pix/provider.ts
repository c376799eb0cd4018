/**
 * Production PIX notifications from the provider, in the Banco Central "API Pix" webhook style:
 * `{ "pix": [{ endToEndId, txid, valor, horario, ... }] }` for payments received, and
 * `{ "payouts": [{ endToEndId, status: COMPLETED | REJECTED | RETURNED, reason? }] }` for the results
 * of payments sent. Each item is read and applied in its own database transaction: a redelivered one is
 * recognised by its end-to-end id and changes nothing, an unreadable one is recorded and answered as
 * MALFORMED, and one that fails is answered as ERROR (the provider redelivers it) — neither holds up the
 * rest of the batch.
 */
import type { Config } from '../../../config.ts';
import type { Clock } from '../../../core/clock.ts';
import { parseAmount } from '../../../core/money.ts';
import type { Database } from '../../../db/types.ts';
import { settleNow } from '../../transactions/settlement.ts';
import type { ChainRegistry } from '../chains/registry.ts';
import { receivePixPayment } from './deposit.ts';
import {
  itemId,
  payoutResultOf,
  readDeposit,
  readPayoutResult,
  recordRejectedItem,
} from './notification-items.ts';
import { applyPayoutResult } from './payout.ts';

export type ItemOutcome =
  | 'APPLIED'
  | 'HELD_FOR_REFUND'
  | 'UNMATCHED'
  | 'DUPLICATE'
  | 'UNKNOWN'
  | 'MALFORMED'
  | 'ERROR';
export type ItemResult = { endToEndId: string; outcome: ItemOutcome; detail?: string };

export function createPixNotificationService(deps: {
  db: Database;
  clock: Clock;
  config: Config;
  chains: ChainRegistry;
}) {
  const { db, clock } = deps;

  async function rejected(item: unknown, reason: string): Promise<ItemResult> {
    try {
      await recordRejectedItem(db, item, reason, clock());
    } catch {
      // answered all the same
    }
    return { endToEndId: itemId(item), outcome: 'MALFORMED', detail: reason };
  }

  async function deposit(item: unknown): Promise<ItemResult> {
    const read = readDeposit(item);
    if (typeof read === 'string') return rejected(item, read);
    try {
      const result = await db.transaction((tx) =>
        receivePixPayment(
          tx,
          'production',
          {
            endToEndId: read.endToEndId,
            txid: read.txid,
            amount: parseAmount(read.valor),
            paidAt: new Date(read.horario),
            payload: read,
          },
          clock(),
        ),
      );
      if (result.outcome === 'APPLIED' && result.transactionId) await settleNow(deps, result.transactionId);
      return { endToEndId: read.endToEndId, outcome: result.outcome };
    } catch {
      return { endToEndId: read.endToEndId, outcome: 'ERROR' };
    }
  }

  async function payout(item: unknown): Promise<ItemResult> {
    const read = readPayoutResult(item);
    if (typeof read === 'string') return rejected(item, read);
    const result = payoutResultOf(read);
    try {
      const outcome = await db.transaction((tx) =>
        applyPayoutResult(tx, 'production', read.endToEndId, result, clock()),
      );
      return { endToEndId: read.endToEndId, outcome };
    } catch {
      return { endToEndId: read.endToEndId, outcome: 'ERROR' };
    }
  }

  async function receive(batch: { pix?: unknown[]; payouts?: unknown[] }): Promise<ItemResult[]> {
    const results: ItemResult[] = [];
    for (const item of batch.pix ?? []) results.push(await deposit(item));
    for (const item of batch.payouts ?? []) results.push(await payout(item));
    return results;
  }

  return { receive };
}
