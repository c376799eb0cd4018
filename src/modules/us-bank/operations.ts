/**
 * What operators see of the USD rail, per environment: dollars in at the US bank (where the last sweep of
 * inbound transfers got to, the transfers received most recently with their outcome, the transfers
 * returned whose return the bank has not accepted yet, retried until it does, and counts by rail and
 * outcome) and dollars out (the payouts made most recently, counts by rail and status, and the age of the
 * oldest still waiting for the bank).
 */
import { formatAmount } from '../../core/money.ts';
import type { Database } from '../../db/types.ts';
import { ENVIRONMENTS, type Environment } from '../../lib/environment.ts';
import {
  type BankPayoutRow,
  bankSweeps,
  type InboundTransferRow,
  inboundCounts,
  type PayoutCountRow,
  payoutCounts,
  pendingReturnCounts,
  pendingReturns,
  recentInbound,
  recentPayouts,
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

/** A USD payout as the console shows it. */
export type BankPayout = {
  key: string;
  rail: 'ACH' | 'WIRE';
  transactionId: string;
  amount: string;
  status: BankPayoutRow['status'];
  attempts: number;
  failureReason: string | null;
  returnCode: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type PayoutCount = { rail: 'ACH' | 'WIRE'; status: string; count: number };

export type UsdRailOverview = {
  environment: Environment;
  lastSweep: { sweptThrough: Date; sweptAt: Date } | null;
  recent: InboundTransfer[];
  pendingReturns: InboundTransfer[];
  counts: { rail: 'ACH' | 'WIRE'; outcome: string; count: number }[];
  payouts: BankPayout[];
  payoutCounts: PayoutCount[];
};

const presentPayout = (row: BankPayoutRow): BankPayout => ({
  key: row.key,
  rail: row.rail,
  transactionId: row.transaction_id,
  amount: formatAmount(BigInt(row.amount)),
  status: row.status,
  attempts: row.attempts,
  failureReason: row.failure_reason,
  returnCode: row.return_code,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

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
  payouts: PayoutCount[];
  /** seconds since the oldest payout still waiting for the bank was made (0 when none waits) */
  oldestOpenPayoutSeconds: number;
};

const payoutCountsOf = (rows: PayoutCountRow[], environment: Environment): PayoutCount[] =>
  rows
    .filter((c) => c.environment === environment)
    .map((c) => ({ rail: c.rail, status: c.status, count: Number(c.n) }));

function oldestOpenSeconds(rows: PayoutCountRow[], environment: Environment, now: Date): number {
  const open = rows
    .filter((c) => c.environment === environment && c.oldest_open !== null)
    .map((c) => new Date(c.oldest_open!).getTime());
  return open.length === 0 ? 0 : Math.max(0, (now.getTime() - Math.min(...open)) / 1000);
}

export function createUsdRailOperationsService(deps: { db: Database }) {
  return {
    async overview(): Promise<UsdRailOverview[]> {
      const [sweeps, counts, sent] = await Promise.all([
        bankSweeps(deps.db),
        inboundCounts(deps.db),
        payoutCounts(deps.db),
      ]);
      return Promise.all(
        (['production', 'sandbox'] as const).map(async (environment) => {
          const sweep = sweeps.find((s) => s.environment === environment);
          const [recent, returns, payouts] = await Promise.all([
            recentInbound(deps.db, environment, SHOWN),
            pendingReturns(deps.db, environment, SHOWN),
            recentPayouts(deps.db, environment, SHOWN),
          ]);
          return {
            environment,
            lastSweep: sweep ? { sweptThrough: sweep.swept_through, sweptAt: sweep.swept_at } : null,
            recent: recent.map(present),
            pendingReturns: returns.map(present),
            counts: counts
              .filter((c) => c.environment === environment)
              .map((c) => ({ rail: c.rail, outcome: c.outcome, count: Number(c.n) })),
            payouts: payouts.map(presentPayout),
            payoutCounts: payoutCountsOf(sent, environment),
          };
        }),
      );
    },

    /** The rail's figures for a scrape of `/metrics`, at `now`. */
    async scrape(now: Date): Promise<UsdRailScrape[]> {
      const [sweeps, counts, returns, sent] = await Promise.all([
        bankSweeps(deps.db),
        inboundCounts(deps.db),
        pendingReturnCounts(deps.db),
        payoutCounts(deps.db),
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
          payouts: payoutCountsOf(sent, environment),
          oldestOpenPayoutSeconds: oldestOpenSeconds(sent, environment, now),
        };
      });
    },
  };
}
