/**
 * What operators see of the USD rail (dollars in at the US bank), per environment: where the last sweep
 * of inbound transfers got to, the transfers received most recently with their outcome, the transfers
 * returned whose return the bank has not accepted yet (retried until it does), and counts by rail and
 * outcome.
 */
import { formatAmount } from '../../core/money.ts';
import type { Database } from '../../db/types.ts';
import { ENVIRONMENTS, type Environment } from '../../lib/environment.ts';
import {
  bankSweeps,
  type InboundTransferRow,
  inboundCounts,
  pendingReturnCounts,
  pendingReturns,
  recentInbound,
} from './operations-repo.ts';

const SHOWN = 50;

export type InboundTransfer = {
  bank: string;
  bankTransferId: string;
  rail: 'ACH' | 'WIRE';
  accountId: string | null;
  transactionId: string | null;
  amount: string;
  outcome: 'APPLIED' | 'HELD' | 'RETURNED';
  returnReason: string | null;
  returnedAt: Date | null;
  receivedAt: Date;
};

export type UsdRailOverview = {
  environment: Environment;
  lastSweep: { sweptThrough: Date; sweptAt: Date } | null;
  recent: InboundTransfer[];
  pendingReturns: InboundTransfer[];
  counts: { rail: 'ACH' | 'WIRE'; outcome: string; count: number }[];
};

const present = (row: InboundTransferRow): InboundTransfer => ({
  bank: row.bank,
  bankTransferId: row.bank_transfer_id,
  rail: row.rail,
  accountId: row.account_id,
  transactionId: row.transaction_id,
  amount: formatAmount(BigInt(row.amount)),
  outcome: row.outcome,
  returnReason: row.return_reason,
  returnedAt: row.returned_at,
  receivedAt: row.received_at,
});

export type UsdRailScrape = {
  environment: Environment;
  /** seconds since the last complete sweep ended, null before the first */
  lagSeconds: number | null;
  pendingReturns: number;
  oldestPendingReturnSeconds: number;
  inbound: { rail: 'ACH' | 'WIRE'; outcome: string; count: number }[];
};

export function createUsdRailOperationsService(deps: { db: Database }) {
  return {
    async overview(): Promise<UsdRailOverview[]> {
      const [sweeps, counts] = await Promise.all([bankSweeps(deps.db), inboundCounts(deps.db)]);
      return Promise.all(
        (['production', 'sandbox'] as const).map(async (environment) => {
          const sweep = sweeps.find((s) => s.environment === environment);
          const [recent, returns] = await Promise.all([
            recentInbound(deps.db, environment, SHOWN),
            pendingReturns(deps.db, environment, SHOWN),
          ]);
          return {
            environment,
            lastSweep: sweep ? { sweptThrough: sweep.swept_through, sweptAt: sweep.swept_at } : null,
            recent: recent.map(present),
            pendingReturns: returns.map(present),
            counts: counts
              .filter((c) => c.environment === environment)
              .map((c) => ({ rail: c.rail, outcome: c.outcome, count: Number(c.n) })),
          };
        }),
      );
    },

    /** The rail's figures for a scrape of `/metrics`, at `now`. */
    async scrape(now: Date): Promise<UsdRailScrape[]> {
      const [sweeps, counts, returns] = await Promise.all([
        bankSweeps(deps.db),
        inboundCounts(deps.db),
        pendingReturnCounts(deps.db),
      ]);
      return ENVIRONMENTS.map((environment) => {
        const sweep = sweeps.find((s) => s.environment === environment);
        const pending = returns.find((r) => r.environment === environment);
        return {
          environment,
          lagSeconds: sweep ? Math.max(0, (now.getTime() - sweep.swept_at.getTime()) / 1000) : null,
          pendingReturns: pending ? Number(pending.n) : 0,
          oldestPendingReturnSeconds: pending
            ? Math.max(0, (now.getTime() - new Date(pending.oldest).getTime()) / 1000)
            : 0,
          inbound: counts
            .filter((c) => c.environment === environment)
            .map((c) => ({ rail: c.rail, outcome: c.outcome, count: Number(c.n) })),
        };
      });
    },
  };
}
