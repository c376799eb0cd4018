-- The ledger's zero-sum check, once per statement that inserts entries instead of once per entry: when an
-- INSERT into ledger_entries is done, every journal it touched must sum to zero in each currency, over all
-- of that journal's entries (those already stored included). A journal's entries are therefore written in
-- one statement, as the service writes them; entries added to a journal later must balance among
-- themselves, as before. Every committed journal still sums to zero in each currency.
DROP TRIGGER ledger_entries_balanced ON ledger_entries;
DROP FUNCTION ledger_journal_balanced();

CREATE FUNCTION ledger_journals_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad record;
BEGIN
  SELECT j.journal_id, u.currency INTO bad
    FROM (SELECT DISTINCT journal_id FROM inserted) AS j
   CROSS JOIN LATERAL (
           SELECT e.currency FROM ledger_entries e
            WHERE e.journal_id = j.journal_id
            GROUP BY e.currency HAVING sum(e.amount) <> 0
            LIMIT 1) AS u
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'ledger journal % does not balance in %', bad.journal_id, bad.currency
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER ledger_entries_balanced
  AFTER INSERT ON ledger_entries REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_journals_balanced();

-- Two indexes of transactions that no query uses any more, each written on every creation and on every
-- status change: the limit check reads the running totals of limit_usage (014) instead of summing a
-- customer's transactions, and settlement claims through transactions_settlement_due (010).
DROP INDEX transactions_usage;
DROP INDEX transactions_in_flight;
