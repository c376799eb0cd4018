import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';

export type PayoutStatus = 'PENDING' | 'SUBMITTED' | 'COMPLETED' | 'REJECTED' | 'RETURNED';

/** The rail a payment goes by, and the fiat it pays: PIX in BRL, ACH or wire in USD. */
export type PayoutRail = 'PIX' | 'ACH' | 'WIRE';

export type PayoutRow = {
  /** The payment's key: a PIX end-to-end id or idEnvio; a US bank payout's idempotency key. */
  end_to_end_id: string;
  environment: Environment;
  transaction_id: string;
  kind: 'OFF_RAMP' | 'REFUND';
  amount: bigint;
  bank_account_id: string | null;
  refunded_end_to_end_id: string | null;
  status: PayoutStatus;
  attempts: number;
  next_attempt_at: Date | null;
  failure_reason: string | null;
  rail: PayoutRail;
  currency: 'BRL' | 'USD';
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = `end_to_end_id, environment, transaction_id, kind, amount, bank_account_id, refunded_end_to_end_id,
  status, attempts, next_attempt_at, failure_reason, rail, currency, created_at, updated_at`;

export async function insertPayout(db: Executor, row: PayoutRow): Promise<void> {
  await db.query(
    `INSERT INTO pix_payouts (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      row.end_to_end_id,
      row.environment,
      row.transaction_id,
      row.kind,
      row.amount,
      row.bank_account_id,
      row.refunded_end_to_end_id,
      row.status,
      row.attempts,
      row.next_attempt_at,
      row.failure_reason,
      row.rail,
      row.currency,
      row.created_at,
      row.updated_at,
    ],
  );
}

export async function lockPayout(
  db: Executor,
  environment: Environment,
  endToEndId: string,
): Promise<PayoutRow | undefined> {
  const rows = await db.query<PayoutRow>(
    `SELECT ${COLUMNS} FROM pix_payouts WHERE end_to_end_id = $1 AND environment = $2 FOR UPDATE`,
    [endToEndId, environment],
  );
  return rows[0];
}

export async function payoutsOf(
  db: Executor,
  transactionId: string,
  kind: PayoutRow['kind'],
): Promise<PayoutRow[]> {
  return db.query<PayoutRow>(
    `SELECT ${COLUMNS} FROM pix_payouts WHERE transaction_id = $1 AND kind = $2 ORDER BY created_at`,
    [transactionId, kind],
  );
}

export async function setPayoutStatus(
  db: Executor,
  endToEndId: string,
  status: PayoutStatus,
  failureReason: string | null,
  at: Date,
): Promise<void> {
  await db.query(
    `UPDATE pix_payouts SET status = $2, failure_reason = coalesce($3, failure_reason), updated_at = $4,
            next_attempt_at = NULL, check_at = NULL, held_since = NULL
      WHERE end_to_end_id = $1`,
    [endToEndId, status, failureReason, at],
  );
}

/**
 * Claims payouts due for submission, skipping those another process holds, and pushes each one's next
 * attempt out by `retryAfterMs` × 2^attempts (at most an hour): a process that dies while submitting
 * leaves the payout to be submitted again, with the same end-to-end id, once that time has passed.
 */
export async function claimDuePayouts(
  db: Executor,
  now: Date,
  limit: number,
  retryAfterMs: number,
  only?: string,
): Promise<PayoutRow[]> {
  return db.query<PayoutRow>(
    `UPDATE pix_payouts p
        SET attempts = p.attempts + 1,
            next_attempt_at = $1::timestamptz
              + least(interval '1 hour', $3 * interval '1 millisecond' * power(2, least(p.attempts, 20)))
      WHERE p.end_to_end_id IN (
              SELECT end_to_end_id FROM pix_payouts
               WHERE status = 'PENDING' AND next_attempt_at <= $1 AND held_since IS NULL
                 AND ($4::text IS NULL OR end_to_end_id = $4)
               ORDER BY next_attempt_at
               LIMIT $2
                 FOR UPDATE SKIP LOCKED)
        AND p.status = 'PENDING'
      RETURNING ${COLUMNS.split(',')
        .map((c) => `p.${c.trim()}`)
        .join(', ')}`,
    [now, limit, retryAfterMs, only ?? null],
  );
}

/**
 * The provider accepted the payout: its result arrives later, and is asked for at `checkAt` if it has not.
 * A hold no longer applies to it: the provider has it.
 */
export async function markSubmitted(
  db: Executor,
  endToEndId: string,
  at: Date,
  checkAt: Date,
): Promise<void> {
  await db.query(
    `UPDATE pix_payouts SET status = 'SUBMITTED', next_attempt_at = NULL, check_at = $3, updated_at = $2,
            held_since = NULL
      WHERE end_to_end_id = $1 AND status = 'PENDING'`,
    [endToEndId, at, checkAt],
  );
}

export type PayoutToCheck = Pick<
  PayoutRow,
  'end_to_end_id' | 'environment' | 'kind' | 'refunded_end_to_end_id' | 'attempts' | 'rail'
>;

/**
 * Claims accepted payouts whose result is late, skipping those another process holds, and pushes each
 * one's next check out by `intervalMs` × 2^checks (at most an hour).
 */
export async function claimPayoutsToCheck(
  db: Executor,
  now: Date,
  limit: number,
  intervalMs: number,
): Promise<PayoutToCheck[]> {
  return db.query<PayoutToCheck>(
    `UPDATE pix_payouts p
        SET status_checks = p.status_checks + 1,
            check_at = $1::timestamptz
              + least(interval '1 hour', $3 * interval '1 millisecond' * power(2, least(p.status_checks, 20)))
      WHERE p.end_to_end_id IN (
              SELECT end_to_end_id FROM pix_payouts
               WHERE status = 'SUBMITTED' AND check_at <= $1
               ORDER BY check_at
               LIMIT $2
                 FOR UPDATE SKIP LOCKED)
        AND p.status = 'SUBMITTED'
      RETURNING p.end_to_end_id, p.environment, p.kind, p.refunded_end_to_end_id, p.attempts, p.rail`,
    [now, limit, intervalMs],
  );
}

/**
 * The provider does not know an accepted payout (it lost it, or never took it): it is sent again, with
 * the same end-to-end id, so that it is paid at most once.
 */
export async function resubmitPayout(db: Executor, endToEndId: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE pix_payouts SET status = 'PENDING', next_attempt_at = $2, check_at = NULL, updated_at = $2
      WHERE end_to_end_id = $1 AND status = 'SUBMITTED'`,
    [endToEndId, at],
  );
}

/** Where a payout goes: a PIX key, or a US bank account (routing and account number), and its holder. */
export type PayoutDestination = {
  key_type: string | null;
  key_value: string | null;
  routing_number: string | null;
  account_number: string | null;
  account_type: 'CHECKING' | 'SAVINGS' | null;
  holder_legal_name: string;
  holder_type: 'INDIVIDUAL' | 'BUSINESS';
  holder_tax_id: string | null;
  holder_address: { line1: string; city: string; state: string; postalCode: string; country: string };
};

export async function payoutDestination(db: Executor, bankAccountId: string): Promise<PayoutDestination> {
  const rows = await db.query<PayoutDestination>(
    `SELECT key_type, key_value, routing_number, account_number, account_type, holder_legal_name, holder_type,
            holder_tax_id, holder_address
       FROM bank_accounts WHERE id = $1`,
    [bankAccountId],
  );
  return rows[0]!;
}

/** The off-ramp payout of a transaction (its latest), unlocked. */
export async function offRampPayoutOf(db: Executor, transactionId: string): Promise<PayoutRow | undefined> {
  const rows = await payoutsOf(db, transactionId, 'OFF_RAMP');
  return rows.at(-1);
}

/** Records one part returned on a send; the total returned so far, or null when this part was recorded already. */
export async function recordSendReturn(
  db: Executor,
  key: string,
  part: { id: string; amount: bigint; at: Date | null },
  at: Date,
): Promise<bigint | null> {
  const inserted = await db.query(
    `INSERT INTO pix_send_returns (payout_key, return_id, amount, returned_at, recorded_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING return_id`,
    [key, part.id, part.amount, part.at ?? at, at],
  );
  if (inserted.length === 0) return null;
  const rows = await db.query<{ total: bigint }>(
    'SELECT coalesce(sum(amount), 0)::bigint AS total FROM pix_send_returns WHERE payout_key = $1',
    [key],
  );
  return rows[0]!.total;
}

/**
 * The PSP assigned the PIX's end-to-end id of a send: recorded on the payout and, for an off-ramp, as
 * its `payout.endToEndId` (set once; a different one later is ignored).
 */
export async function recordPspEndToEndId(db: Executor, key: string, endToEndId: string): Promise<void> {
  await db.query(
    `WITH payout AS (
       UPDATE pix_payouts SET psp_end_to_end_id = $2 WHERE end_to_end_id = $1 AND psp_end_to_end_id IS NULL
       RETURNING transaction_id, kind)
     UPDATE transactions t SET end_to_end_id = $2
       FROM payout p WHERE t.id = p.transaction_id AND p.kind = 'OFF_RAMP' AND t.end_to_end_id IS NULL`,
    [key, endToEndId],
  );
}

/** The key of the send the PSP gave this end-to-end id, if it is one of Ponte's. */
export async function payoutKeyOfEndToEndId(
  db: Executor,
  environment: Environment,
  endToEndId: string,
): Promise<string | null> {
  const rows = await db.query<{ end_to_end_id: string }>(
    'SELECT end_to_end_id FROM pix_payouts WHERE psp_end_to_end_id = $1 AND environment = $2',
    [endToEndId, environment],
  );
  return rows[0]?.end_to_end_id ?? null;
}

/** A payout by its key, unlocked (to decide whether a PSP report concerns it). */
export async function findPayout(
  db: Executor,
  environment: Environment,
  key: string,
): Promise<PayoutRow | undefined> {
  const rows = await db.query<PayoutRow>(
    `SELECT ${COLUMNS} FROM pix_payouts WHERE end_to_end_id = $1 AND environment = $2`,
    [key, environment],
  );
  return rows[0];
}

/** How many PIX sends (payouts and refunds) are not yet settled, per environment. */
export async function pendingSends(
  db: Executor,
): Promise<{ environment: Environment; count: number; oldest: Date }[]> {
  const rows = await db.query<{ environment: Environment; count: bigint; oldest: Date }>(
    `SELECT environment, count(*) AS count, min(created_at) AS oldest FROM pix_payouts
      WHERE status IN ('PENDING', 'SUBMITTED') AND rail = 'PIX' GROUP BY environment`,
  );
  return rows.map((row) => ({ environment: row.environment, count: Number(row.count), oldest: row.oldest }));
}

/** A PIX deposit as recorded when it arrived: what a refund sends back. */
export type HeldDeposit = {
  end_to_end_id: string;
  environment: Environment;
  txid: string;
  transaction_id: string | null;
  amount: bigint;
  paid_at: Date;
  outcome: 'APPLIED' | 'HELD_FOR_REFUND' | 'UNMATCHED';
  payload: unknown;
  received_at: Date;
};

/**
 * The deposits of a transaction whose BRL is held for the customer and not yet sent back: those that
 * arrived when the charge no longer waited, and, when `includeApplied`, the one that funded a
 * transaction that then failed or expired.
 */
export async function refundableDeposits(
  db: Executor,
  transactionId: string,
  includeApplied: boolean,
): Promise<HeldDeposit[]> {
  return db.query<HeldDeposit>(
    `SELECT d.end_to_end_id, d.environment, d.txid, d.transaction_id, d.amount, d.paid_at, d.outcome, d.payload,
            d.received_at
       FROM pix_deposits d
      WHERE d.transaction_id = $1
        AND (d.outcome = 'HELD_FOR_REFUND' OR ($2 AND d.outcome = 'APPLIED'))
        AND NOT EXISTS (SELECT 1 FROM pix_payouts p
                         WHERE p.refunded_end_to_end_id = d.end_to_end_id AND p.status <> 'REJECTED')
      ORDER BY d.received_at`,
    [transactionId, includeApplied],
  );
}

/** Who a payout's money belongs to: the customer of its transaction (and its receiving account). */
export async function payoutCustomers(db: Executor, keys: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.query<{ end_to_end_id: string; customer_id: string }>(
    `SELECT p.end_to_end_id, t.customer_id FROM pix_payouts p JOIN transactions t ON t.id = p.transaction_id
      WHERE p.end_to_end_id = ANY($1::text[])`,
    [keys],
  );
  return new Map(rows.map((row) => [row.end_to_end_id, row.customer_id]));
}

/** A claimed payout stopped by a compliance hold: passed by until the case is decided. */
export async function holdPayout(db: Executor, key: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE pix_payouts SET held_since = $2, updated_at = $2 WHERE end_to_end_id = $1 AND status = 'PENDING'`,
    [key, at],
  );
}

/**
 * The held payouts a decided case concerns, locked: those of the customer's transactions, or (a holder's
 * case) those to the account.
 */
export async function lockHeldPayouts(
  db: Executor,
  concerning: { customerId: string } | { bankAccountId: string },
): Promise<PayoutRow[]> {
  const byAccount = 'bankAccountId' in concerning;
  return db.query<PayoutRow>(
    `SELECT ${COLUMNS.split(',')
      .map((c) => `p.${c.trim()}`)
      .join(', ')}
       FROM pix_payouts p JOIN transactions t ON t.id = p.transaction_id
      WHERE p.held_since IS NOT NULL AND p.status = 'PENDING'
        AND (${byAccount ? 'p.bank_account_id = $1' : 't.customer_id = $1'})
      ORDER BY p.end_to_end_id FOR UPDATE OF p`,
    [byAccount ? concerning.bankAccountId : concerning.customerId],
  );
}

/** A held payout whose hold was lifted: due again at once (the claim looks at its holds once more). */
export async function releaseHeldPayout(db: Executor, key: string, at: Date): Promise<void> {
  await db.query(
    `UPDATE pix_payouts SET held_since = NULL, next_attempt_at = $2, updated_at = $2
      WHERE end_to_end_id = $1 AND status = 'PENDING'`,
    [key, at],
  );
}

/** The currency and rail a live bank account of the tenant pays in, or undefined when there is none. */
export async function payoutTargetOf(
  db: Executor,
  tenant: Tenant,
  bankAccountId: string,
): Promise<{ currency: 'BRL' | 'USD'; rail: PayoutRail } | undefined> {
  const rows = await db.query<{ currency: 'BRL' | 'USD'; rail: PayoutRail }>(
    `SELECT currency, rail FROM bank_accounts
      WHERE id = $1 AND project_id = $2 AND environment = $3 AND deleted_at IS NULL`,
    [bankAccountId, tenant.projectId, tenant.environment],
  );
  return rows[0];
}
