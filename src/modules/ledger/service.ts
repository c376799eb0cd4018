/**
 * The ledger's public surface: post a balanced journal within the caller's transaction, and read a
 * customer's balances. A journal whose entries do not sum to zero in each currency is refused here,
 * before anything is written; the database checks it again when the transaction commits.
 */
import { newId } from '../../core/ids.ts';
import type { StatementPart } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';
import { isBalanced } from './accounts.ts';
import { insertJournalsParts, type NewJournal } from './repo.ts';

export { customerBalances, type NewJournal, releaseEntries } from './repo.ts';

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
