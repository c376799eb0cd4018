/**
 * The ledger's public surface: post a balanced journal (the database refuses an unbalanced one) within
 * the caller's transaction, and read a customer's balances.
 */
export {
  customerBalances,
  journalsParts,
  type NewJournal,
  postJournal,
  releaseEntries,
} from './repo.ts';
