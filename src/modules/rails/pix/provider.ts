/**
 * Production deposits: the PIX provider notifies the payments its account received, in the Banco
 * Central "API Pix" webhook format (`{ "pix": [{ endToEndId, txid, valor, horario, ... }] }`). Each
 * payment is received in its own database transaction; a redelivered one is recognised by its
 * end-to-end id and changes nothing.
 */

import type { Clock } from '../../../core/clock.ts';
import { parseAmount } from '../../../core/money.ts';
import type { Database } from '../../../db/types.ts';
import { settleNow } from '../../transactions/settlement.ts';
import { type DepositResult, receivePixPayment } from './deposit.ts';

export type ProviderPix = { endToEndId: string; txid: string; valor: string; horario: string };

export function createPixNotificationService(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  async function receive(items: ProviderPix[]): Promise<(DepositResult & { endToEndId: string })[]> {
    const results: (DepositResult & { endToEndId: string })[] = [];
    for (const item of items) {
      const result = await db.transaction((tx) =>
        receivePixPayment(
          tx,
          'production',
          {
            endToEndId: item.endToEndId,
            txid: item.txid,
            amount: parseAmount(item.valor),
            paidAt: new Date(item.horario),
            payload: item,
          },
          clock(),
        ),
      );
      if (result.outcome === 'APPLIED' && result.transactionId) {
        await settleNow(db, clock, result.transactionId);
      }
      results.push({ ...result, endToEndId: item.endToEndId });
    }
    return results;
  }

  return { receive };
}
