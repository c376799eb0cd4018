/** The reads behind the console's USD rail page and `/metrics`: sweeps, inbound transfers, pending returns. */
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

export type BankSweepRow = { environment: Environment; swept_through: Date; swept_at: Date };

export async function bankSweeps(db: Executor): Promise<BankSweepRow[]> {
  return db.query<BankSweepRow>(
    `SELECT environment, swept_through, swept_at FROM bank_sweeps WHERE bank = 'INCREASE' ORDER BY environment`,
  );
}

export type InboundTransferRow = {
  bank: string;
  bank_transfer_id: string;
  environment: Environment;
  rail: 'ACH' | 'WIRE';
  account_id: string | null;
  transaction_id: string | null;
  amount: bigint;
  outcome: 'APPLIED' | 'HELD' | 'RETURNED';
  return_reason: string | null;
  returned_at: Date | null;
  received_at: Date;
};

const COLUMNS = `bank, bank_transfer_id, environment, rail, account_id, transaction_id, amount, outcome, return_reason,
  returned_at, received_at`;

/** The transfers received most recently in an environment, newest first. */
export async function recentInbound(
  db: Executor,
  environment: Environment,
  limit: number,
): Promise<InboundTransferRow[]> {
  return db.query<InboundTransferRow>(
    `SELECT ${COLUMNS} FROM inbound_bank_transfers WHERE environment = $1 ORDER BY received_at DESC LIMIT $2`,
    [environment, limit],
  );
}

/**
 * Transfers Ponte returned whose return (or reversal) the bank has not accepted yet, oldest first. The
 * sandbox's simulated bank (SANDBOX) has no one to return to: its returns are never pending.
 */
export async function pendingReturns(
  db: Executor,
  environment: Environment,
  limit: number,
): Promise<InboundTransferRow[]> {
  return db.query<InboundTransferRow>(
    `SELECT ${COLUMNS} FROM inbound_bank_transfers
      WHERE outcome = 'RETURNED' AND returned_at IS NULL AND bank <> 'SANDBOX' AND environment = $1
      ORDER BY received_at LIMIT $2`,
    [environment, limit],
  );
}

export type InboundCountRow = { environment: Environment; rail: 'ACH' | 'WIRE'; outcome: string; n: bigint };

/** Inbound transfers counted by environment, rail and outcome (with those returned but not yet accepted). */
export async function inboundCounts(db: Executor): Promise<InboundCountRow[]> {
  return db.query<InboundCountRow>(
    `SELECT environment, rail, outcome, count(*) AS n FROM inbound_bank_transfers
      GROUP BY environment, rail, outcome ORDER BY environment, rail, outcome`,
  );
}

export async function pendingReturnCounts(
  db: Executor,
): Promise<{ environment: Environment; n: bigint; oldest: Date }[]> {
  return db.query(
    `SELECT environment, count(*) AS n, min(received_at) AS oldest FROM inbound_bank_transfers
      WHERE outcome = 'RETURNED' AND returned_at IS NULL AND bank <> 'SANDBOX' GROUP BY environment`,
  );
}

/** A USD payout (an off-ramp paid over ACH or wire), with what its transaction says of it. */
export type BankPayoutRow = {
  key: string;
  environment: Environment;
  rail: 'ACH' | 'WIRE';
  transaction_id: string;
  amount: bigint;
  status: 'PENDING' | 'SUBMITTED' | 'COMPLETED' | 'REJECTED' | 'RETURNED';
  attempts: number;
  failure_reason: string | null;
  return_code: string | null;
  created_at: Date;
  updated_at: Date;
};

/** The USD payouts made most recently in an environment, newest first. */
export async function recentPayouts(
  db: Executor,
  environment: Environment,
  limit: number,
): Promise<BankPayoutRow[]> {
  return db.query<BankPayoutRow>(
    `SELECT p.end_to_end_id AS key, p.environment, p.rail, p.transaction_id, p.amount, p.status, p.attempts,
            p.failure_reason, t.return_code, p.created_at, p.updated_at
       FROM pix_payouts p JOIN transactions t ON t.id = p.transaction_id
      WHERE p.rail IN ('ACH', 'WIRE') AND p.environment = $1
      ORDER BY p.created_at DESC LIMIT $2`,
    [environment, limit],
  );
}

export type PayoutCountRow = {
  environment: Environment;
  rail: 'ACH' | 'WIRE';
  status: string;
  n: bigint;
  /** The oldest still waiting for the bank (PENDING or SUBMITTED), null when none waits. */
  oldest_open: Date | null;
};

/** USD payouts by environment, rail and status, with the oldest of those still open. */
export async function payoutCounts(db: Executor): Promise<PayoutCountRow[]> {
  return db.query<PayoutCountRow>(
    `SELECT environment, rail, status, count(*) AS n,
            min(created_at) FILTER (WHERE status IN ('PENDING', 'SUBMITTED')) AS oldest_open
       FROM pix_payouts WHERE rail IN ('ACH', 'WIRE')
      GROUP BY environment, rail, status ORDER BY environment, rail, status`,
  );
}
