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
