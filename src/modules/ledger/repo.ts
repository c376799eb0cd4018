import { newId } from '../../core/ids.ts';
import type { StatementPart } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { Blockchain } from '../rails/chains/networks.ts';
import { type Currency, type Entry, isBalanced, type JournalKind } from './accounts.ts';

export type NewJournal = {
  tenant: Tenant;
  kind: JournalKind;
  /** What the movement is about (a deposit's end-to-end id, a transaction id): posted once per kind. */
  reference: string;
  transactionId: string | null;
  entries: Entry[];
  at: Date;
};

/**
 * The two INSERTs of a journal and its entries, as parts of the statement that writes the movement it
 * records. Refuses an unbalanced journal here already; the database checks it again when the
 * transaction commits.
 */
export function journalParts(journal: NewJournal, id: string = newId()): [StatementPart, StatementPart] {
  const entries = journal.entries.filter((entry) => entry.amount !== 0n);
  if (entries.length === 0 || !isBalanced(entries)) {
    throw new Error(`unbalanced ${journal.kind} journal for ${journal.reference}`);
  }
  return [
    {
      text: `INSERT INTO ledger_journals (id, project_id, environment, kind, reference, transaction_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      params: [
        id,
        journal.tenant.projectId,
        journal.tenant.environment,
        journal.kind,
        journal.reference,
        journal.transactionId,
        journal.at,
      ],
    },
    {
      text: `INSERT INTO ledger_entries (journal_id, account, customer_id, currency, amount, blockchain)
     SELECT $1::uuid, e.account, e.customer_id, e.currency, e.amount, e.blockchain
       FROM unnest($2::text[], $3::uuid[], $4::text[], $5::bigint[], $6::text[])
         AS e(account, customer_id, currency, amount, blockchain)`,
      params: [
        id,
        entries.map((e) => e.account),
        entries.map((e) => e.customerId),
        entries.map((e) => e.currency),
        entries.map((e) => e.amount.toString()),
        entries.map((e) => e.blockchain ?? null),
      ],
    },
  ];
}

/** Posts a journal in the caller's transaction (see `journalParts`). */
export async function postJournal(db: Executor, journal: NewJournal): Promise<string> {
  const id = newId();
  for (const part of journalParts(journal, id)) await db.query(part.text, part.params);
  return id;
}

/** What the platform owes a customer, per currency: the negated sum of their account entries. */
export async function customerBalances(db: Executor, customerId: string): Promise<Map<Currency, bigint>> {
  const rows = await db.query<{ currency: Currency; balance: string }>(
    `SELECT currency, (-sum(amount))::text AS balance
       FROM ledger_entries
      WHERE customer_id = $1
      GROUP BY currency`,
    [customerId],
  );
  return new Map(rows.map((row) => [row.currency, BigInt(row.balance)]));
}

/** Journals that do not sum to zero in some currency: always none. */
export async function unbalancedJournals(db: Executor): Promise<{ journal_id: string; currency: string }[]> {
  return db.query(
    `SELECT journal_id, currency FROM ledger_entries GROUP BY journal_id, currency HAVING sum(amount) <> 0`,
  );
}

/** What the platform owes a customer in one currency. Exact only under the customer's row lock. */
export async function customerBalance(db: Executor, customerId: string, currency: Currency): Promise<bigint> {
  const rows = await db.query<{ balance: string }>(
    `SELECT coalesce(-sum(amount), 0)::text AS balance
       FROM ledger_entries WHERE customer_id = $1 AND currency = $2`,
    [customerId, currency],
  );
  return BigInt(rows[0]!.balance);
}

/**
 * The entries that undo every movement posted for a transaction so far: per account, customer and
 * currency (and chain, for wallet entries), the negated sum. Posted as one journal, they put everything back where it came from.
 */
export async function releaseEntries(db: Executor, transactionId: string): Promise<Entry[]> {
  const rows = await db.query<{
    account: Entry['account'];
    customer_id: string | null;
    currency: Currency;
    blockchain: Blockchain | null;
    total: string;
  }>(
    `SELECT e.account, e.customer_id, e.currency, e.blockchain, sum(e.amount)::text AS total
       FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
      WHERE j.transaction_id = $1
      GROUP BY e.account, e.customer_id, e.currency, e.blockchain
     HAVING sum(e.amount) <> 0`,
    [transactionId],
  );
  return rows.map((row) => ({
    account: row.account,
    customerId: row.customer_id,
    currency: row.currency,
    amount: -BigInt(row.total),
    ...(row.blockchain === null ? {} : { blockchain: row.blockchain }),
  }));
}
