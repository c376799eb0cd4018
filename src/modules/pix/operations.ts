/**
 * What operators see of the PIX rail, per environment: the last complete reconciliation sweep (when, the
 * window it read, the PSP pages and items), the sends awaiting their result at the PSP (oldest first) and
 * the items that could not be applied, with the reason (newest first).
 */
import { formatDecimal } from '../../core/decimal.ts';
import type { Database } from '../../db/types.ts';
import { ENVIRONMENTS, type Environment } from '../../lib/environment.ts';
import { applyFailures, awaitingSends, sweepRecords } from './operations-repo.ts';

const SHOWN = 100;

export type SweepSummary = {
  completedAt: Date;
  from: Date | null;
  to: Date;
  calls: number;
  items: number;
  applied: number;
};

export type RailOverview = {
  environment: Environment;
  lastCompleteSweep: SweepSummary | null;
  nextSweepAt: Date | null;
  lastSweepError: string | null;
  awaitingSends: {
    sendId: string;
    kind: 'OFF_RAMP' | 'REFUND';
    transactionId: string;
    amount: string;
    status: 'PENDING' | 'SUBMITTED';
    attempts: number;
    pspEndToEndId: string | null;
    since: Date;
  }[];
  failures: { id: string; source: string; item: string; reason: string; at: Date }[];
};

/** The identifying fields of an item (no payer's name or document), for the operator to look it up. */
function describeItem(item: unknown): string {
  if (item === null || typeof item !== 'object') return JSON.stringify(item) ?? String(item);
  const record = item as Record<string, unknown>;
  const keys = ['endToEndId', 'txid', 'idEnvio', 'valor', 'horario'].filter((key) => key in record);
  if (keys.length === 0) return '(an item with none of endToEndId, txid, idEnvio)';
  return keys.map((key) => `${key}=${String(record[key]).slice(0, 80)}`).join(' ');
}

export function createPixOperationsService(deps: { db: Database }) {
  const failuresOf = async (environment: Environment | null) =>
    (await applyFailures(deps.db, environment, SHOWN)).map((row) => ({
      id: row.id,
      source: row.source,
      item: describeItem(row.item),
      reason: row.reason,
      at: row.received_at,
    }));

  return {
    async overview(): Promise<{
      environments: RailOverview[];
      unattributedFailures: RailOverview['failures'];
    }> {
      const sweeps = await sweepRecords(deps.db);
      const environments = await Promise.all(
        ENVIRONMENTS.slice()
          .reverse()
          .map(async (environment): Promise<RailOverview> => {
            const sweep = sweeps.find((row) => row.environment === environment);
            const sends = await awaitingSends(deps.db, environment, SHOWN);
            return {
              environment,
              lastCompleteSweep:
                sweep?.completed_at && sweep.swept_to
                  ? {
                      completedAt: sweep.completed_at,
                      from: sweep.complete_from,
                      to: sweep.swept_to,
                      calls: sweep.complete_calls ?? 0,
                      items: sweep.complete_items ?? 0,
                      applied: sweep.complete_applied ?? 0,
                    }
                  : null,
              nextSweepAt: sweep?.next_at ?? null,
              lastSweepError: sweep?.last_error ?? null,
              awaitingSends: sends.map((row) => ({
                sendId: row.end_to_end_id,
                kind: row.kind,
                transactionId: row.transaction_id,
                amount: formatDecimal(BigInt(row.amount), 2),
                status: row.status,
                attempts: row.attempts,
                pspEndToEndId: row.psp_end_to_end_id,
                since: row.created_at,
              })),
              failures: await failuresOf(environment),
            };
          }),
      );
      return { environments, unattributedFailures: await failuresOf(null) };
    },
  };
}
