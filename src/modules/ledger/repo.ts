import type { Blockchain, Currency } from '../../core/currencies.ts';
import { readFact, type StatementPart } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import type { Entry, JournalKind } from './accounts.ts';

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
 * The two INSERTs of journals and their entries, as parts of the statement that writes the movements
 * they record (a journal alone: a list of one). The journals are balanced already (ledger/service.ts);
 * the database checks it again when the transaction commits.
 */
export function insertJournalsParts(
  journals: readonly NewJournal[],
  ids: readonly string[],
): [StatementPart, StatementPart] {
  const entries = journals.flatMap((journal, index) =>
    journal.entries.map((entry) => ({ ...entry, journalId: ids[index]! })),
  );
  const column = <T>(pick: (journal: NewJournal) => T) => journals.map(pick);
  return [
    {
      text: `INSERT INTO ledger_journals (id, project_id, environment, kind, reference, transaction_id, created_at)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::uuid[], $7::timestamptz[])`,
      params: [
        ids,
        column((journal) => journal.tenant.projectId),
        column((journal) => journal.tenant.environment),
        column((journal) => journal.kind),
        column((journal) => journal.reference),
        column((journal) => journal.transactionId),
        column((journal) => journal.at),
      ],
    },
    {
      text: `INSERT INTO ledger_entries (journal_id, account, customer_id, currency, amount, blockchain)
     SELECT e.journal_id, e.account, e.customer_id, e.currency, e.amount, e.blockchain
       FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::bigint[], $6::text[])
         AS e(journal_id, account, customer_id, currency, amount, blockchain)`,
      params: [
        entries.map((e) => e.journalId),
        entries.map((e) => e.account),
        entries.map((e) => e.customerId),
        entries.map((e) => e.currency),
        entries.map((e) => e.amount.toString()),
        entries.map((e) => e.blockchain ?? null),
      ],
    },
  ];
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

/** A customer's entries of one currency, account and chain, summed (what the platform owes on it). */
export type HeldSum = { currency: Currency; account: string; blockchain: Blockchain | null; amount: bigint };

type HoldingsColumns = {
  holding_currencies: Currency[] | null;
  holding_accounts: string[] | null;
  holding_chains: (Blockchain | null)[] | null;
  holding_amounts: string[] | null;
};

/** A customer's entries summed per currency, account and chain, as a fact of a combined read. */
export const holdingsFact = readFact({
  text: `SELECT array_agg(h.currency) AS holding_currencies, array_agg(h.account) AS holding_accounts,
                array_agg(h.blockchain) AS holding_chains, array_agg(h.amount) AS holding_amounts
           FROM (SELECT currency, account, blockchain, (-sum(amount))::text AS amount FROM ledger_entries
                  WHERE customer_id = $1
                  GROUP BY currency, account, blockchain) AS h`,
  types: ['uuid'],
  params: (customerId: string) => [customerId],
  decode: (row: Partial<HoldingsColumns>): HeldSum[] =>
    (row.holding_currencies ?? []).map((currency, index) => ({
      currency,
      account: row.holding_accounts![index]!,
      blockchain: row.holding_chains![index] ?? null,
      amount: BigInt(row.holding_amounts![index]!),
    })),
});
