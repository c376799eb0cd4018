/** The inbound bank transfers Ponte has learnt of, each recorded once by the bank's id. */
import type { Executor } from '../../db/types.ts';
import type { Environment } from '../../lib/environment.ts';

export type BankTransferOutcome = 'APPLIED' | 'HELD' | 'RETURNED';

export type InboundTransferRow = {
  bank: 'INCREASE' | 'SANDBOX';
  bank_transfer_id: string;
  environment: Environment;
  rail: 'ACH' | 'WIRE';
  account_id: string | null;
  transaction_id: string | null;
  amount: bigint;
  outcome: BankTransferOutcome;
  return_reason: string | null;
  returned_at: Date | null;
  originator_name: string | null;
  payload: unknown;
  received_at: Date;
};

const COLUMNS = `bank, bank_transfer_id, environment, rail, account_id, transaction_id, amount, outcome,
  return_reason, returned_at, originator_name, payload, received_at`;

export async function findInboundTransfer(
  db: Executor,
  bank: InboundTransferRow['bank'],
  bankTransferId: string,
): Promise<InboundTransferRow | undefined> {
  const rows = await db.query<InboundTransferRow>(
    `SELECT ${COLUMNS} FROM inbound_bank_transfers WHERE bank = $1 AND bank_transfer_id = $2`,
    [bank, bankTransferId],
  );
  return rows[0];
}

export async function insertInboundTransfer(db: Executor, row: InboundTransferRow): Promise<void> {
  await db.query(
    `INSERT INTO inbound_bank_transfers (${COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      row.bank,
      row.bank_transfer_id,
      row.environment,
      row.rail,
      row.account_id,
      row.transaction_id,
      row.amount,
      row.outcome,
      row.return_reason,
      row.returned_at,
      row.originator_name,
      JSON.stringify(row.payload),
      row.received_at,
    ],
  );
}

/** Marks a RETURNED transfer as given back at the bank (the return or reversal was accepted). */
export async function markReturned(
  db: Executor,
  bank: InboundTransferRow['bank'],
  bankTransferId: string,
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE inbound_bank_transfers SET returned_at = $3
      WHERE bank = $1 AND bank_transfer_id = $2 AND outcome = 'RETURNED' AND returned_at IS NULL`,
    [bank, bankTransferId, at],
  );
}

/** RETURNED transfers a bank has not yet accepted the return of, in one environment, oldest first. */
export async function unreturnedTransfers(
  db: Executor,
  bank: InboundTransferRow['bank'],
  environment: Environment,
  limit: number,
): Promise<InboundTransferRow[]> {
  return db.query<InboundTransferRow>(
    `SELECT ${COLUMNS} FROM inbound_bank_transfers
      WHERE outcome = 'RETURNED' AND returned_at IS NULL AND bank = $1 AND environment = $2
      ORDER BY received_at LIMIT $3`,
    [bank, environment, limit],
  );
}
