/**
 * The ledger's public surface: post a balanced journal within the caller's transaction, and read a
 * customer's balances. A journal whose entries do not sum to zero in each currency is refused here,
 * before anything is written; the database checks it again when the transaction commits.
 */

import type { Currency } from '../../core/currencies.ts';
import { newId } from '../../core/ids.ts';
import type { StatementPart } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';
import type { Entry } from './accounts.ts';
import { isBalanced } from './accounts.ts';
import * as repo from './repo.ts';
import { insertJournalsParts, type NewJournal } from './repo.ts';

export type { NewJournal } from './repo.ts';

/** What the platform owes a customer, per currency: the negated sum of their account entries. */
export function customerBalances(db: Executor, customerId: string): Promise<Map<Currency, bigint>> {
  return repo.customerBalances(db, customerId);
}

/**
 * The entries that undo every movement posted for a transaction so far: per account, customer and
 * currency (and chain, for wallet entries), the negated sum. Posted as one journal, they put everything back where it came from.
 */
export function releaseEntries(db: Executor, transactionId: string): Promise<Entry[]> {
  return repo.releaseEntries(db, transactionId);
}

/** The journal's entries that move money: refused when there are none, or when they do not balance. */
function postedEntries(journal: NewJournal): NewJournal {
  const posted = journal.entries.filter((entry) => entry.amount !== 0n);
  if (posted.length === 0 || !isBalanced(posted)) {
    throw new Error(`unbalanced ${journal.kind} journal for ${journal.reference}`);
  }
  return { ...journal, entries: posted };
}

/**
 * The statement parts that write `journals` beside the movements they record (a journal alone: a list of
 * one), each balanced.
 */
export function journalsParts(
  journals: readonly NewJournal[],
  ids: readonly string[] = journals.map(() => newId()),
): [StatementPart, StatementPart] {
  return insertJournalsParts(journals.map(postedEntries), ids);
}

/** Posts a balanced journal in the caller's transaction; its id. */
export async function postJournal(db: Executor, journal: NewJournal): Promise<string> {
  const id = newId();
  for (const part of journalsParts([journal], [id])) await db.query(part.text, part.params);
  return id;
}
