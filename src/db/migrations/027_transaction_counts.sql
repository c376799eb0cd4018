-- How many transactions (on- and off-ramps, stablecoin transfers and deposits) each project has in each
-- environment, in all and per customer: the exact `pagination.total` of `GET /transactions` (and of its
-- `customerId` filter), read as one row instead of counted over every transaction on every page. A
-- transfer between two customers of the project is counted once in all and once for each of them, as the
-- customer filter finds it on both sides.
--
-- Kept by the statement triggers below under any writer (the API, bulk loads, operators), so it cannot
-- drift from the rows it counts. A statement that writes transactions updates its counts in one
-- statement, in key order (a project's count before its customers'), so two single statements never
-- wait for each other's rows in opposite orders. A transaction that writes transactions in several
-- statements (the deposit watcher's pass, one deposit at a time) can still meet another writer in the
-- opposite order on two customers' counts: PostgreSQL then ends one of them, and the service runs it
-- again (`db.transaction` retries a deadlock).
--
-- A count's row stays locked until the transaction that changed it commits. One row for all of a
-- project's transactions let one transaction of the project commit at a time: a minimal lock, insert
-- and commit fell from about 1,300 to about 500 a second at 50 connections. So that count is spread
-- over 64 rows (`stripe`) and read as their sum: each database connection writes to its own stripe (its
-- backend's process id modulo 64), so a pool's connections, which write at once, rarely share one,
-- while one connection's transactions follow each other anyway. A stripe may go below zero when a
-- connection removes what another counted; their sum is the exact count. A customer's own count is one
-- row (stripe 0): its writers wait for each other on the customer's lock anyway.
CREATE TABLE transaction_counts (
  project_id  uuid NOT NULL REFERENCES projects (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  -- whose transactions: one customer's, or the nil UUID for every customer's
  customer_id uuid NOT NULL,
  stripe      smallint NOT NULL CHECK (stripe BETWEEN 0 AND 63),
  total       bigint NOT NULL,
  PRIMARY KEY (project_id, environment, customer_id, stripe),
  CHECK (customer_id = '00000000-0000-0000-0000-000000000000' OR (stripe = 0 AND total >= 0))
);

-- The stripe this connection writes the count of all of a project's transactions to.
CREATE FUNCTION transaction_count_stripe() RETURNS smallint
  LANGUAGE sql STABLE PARALLEL RESTRICTED AS $$ SELECT (pg_backend_pid() % 64)::smallint $$;

-- No transaction may be created or removed while the counts are taken.
LOCK TABLE transactions, chain_transactions IN SHARE MODE;

INSERT INTO transaction_counts (project_id, environment, customer_id, stripe, total)
SELECT project_id, environment, owner, stripe, count(*)
  FROM (SELECT project_id, environment, '00000000-0000-0000-0000-000000000000'::uuid AS owner,
               transaction_count_stripe() AS stripe FROM transactions
        UNION ALL SELECT project_id, environment, customer_id, 0 FROM transactions
        UNION ALL SELECT project_id, environment, '00000000-0000-0000-0000-000000000000',
                         transaction_count_stripe() FROM chain_transactions
        UNION ALL SELECT project_id, environment, customer_id, 0 FROM chain_transactions
        UNION ALL SELECT project_id, environment, to_customer_id, 0 FROM chain_transactions
                   WHERE to_customer_id IS NOT NULL AND to_customer_id <> customer_id) AS owners
 GROUP BY project_id, environment, owner, stripe;

-- Each statement below is planned once per connection (PL/pgSQL keeps its plans), and reads the rows
-- the statement wrote from its transition table.
CREATE FUNCTION transaction_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- the counts the rows written change: all of the project's (on this connection's stripe), the customer's,
  -- and for a transfer to another customer of the project, the recipient's
  IF TG_OP = 'INSERT' AND TG_TABLE_NAME = 'transactions' THEN
    INSERT INTO transaction_counts AS k (project_id, environment, customer_id, stripe, total)
    SELECT project_id, environment, owner, stripe, count(*) FROM (
      SELECT project_id, environment, '00000000-0000-0000-0000-000000000000'::uuid AS owner,
             transaction_count_stripe() AS stripe FROM inserted
      UNION ALL SELECT project_id, environment, customer_id, 0 FROM inserted) o
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (project_id, environment, customer_id, stripe) DO UPDATE SET total = k.total + EXCLUDED.total;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO transaction_counts AS k (project_id, environment, customer_id, stripe, total)
    SELECT project_id, environment, owner, stripe, count(*) FROM (
      SELECT project_id, environment, '00000000-0000-0000-0000-000000000000'::uuid AS owner,
             transaction_count_stripe() AS stripe FROM inserted
      UNION ALL SELECT project_id, environment, customer_id, 0 FROM inserted
      UNION ALL SELECT project_id, environment, to_customer_id, 0 FROM inserted
                 WHERE to_customer_id IS NOT NULL AND to_customer_id <> customer_id) o
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (project_id, environment, customer_id, stripe) DO UPDATE SET total = k.total + EXCLUDED.total;
  ELSE
    -- this connection's stripe may have no row yet (and go below zero); a customer's count has one
    INSERT INTO transaction_counts AS k (project_id, environment, customer_id, stripe, total)
    SELECT project_id, environment, '00000000-0000-0000-0000-000000000000', transaction_count_stripe(), -count(*)
      FROM deleted GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (project_id, environment, customer_id, stripe) DO UPDATE SET total = k.total + EXCLUDED.total;
    IF TG_TABLE_NAME = 'transactions' THEN
      UPDATE transaction_counts AS k SET total = k.total - d.n
        FROM (SELECT project_id, environment, customer_id, count(*) AS n FROM deleted GROUP BY 1, 2, 3) d
       WHERE k.project_id = d.project_id AND k.environment = d.environment AND k.customer_id = d.customer_id
         AND k.stripe = 0;
    ELSE
      UPDATE transaction_counts AS k SET total = k.total - d.n
        FROM (SELECT project_id, environment, owner, count(*) AS n FROM (
                SELECT project_id, environment, customer_id AS owner FROM deleted
                UNION ALL SELECT project_id, environment, to_customer_id FROM deleted
                           WHERE to_customer_id IS NOT NULL AND to_customer_id <> customer_id) o
               GROUP BY 1, 2, 3) d
       WHERE k.project_id = d.project_id AND k.environment = d.environment AND k.customer_id = d.owner
         AND k.stripe = 0;
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER transactions_count_insert
  AFTER INSERT ON transactions REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_counts_change();
CREATE TRIGGER transactions_count_delete
  AFTER DELETE ON transactions REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_counts_change();
CREATE TRIGGER chain_transactions_count_insert
  AFTER INSERT ON chain_transactions REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_counts_change();
CREATE TRIGGER chain_transactions_count_delete
  AFTER DELETE ON chain_transactions REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION transaction_counts_change();

-- A transaction belongs to its customers (and their tenant) for good: the counts depend on it.
CREATE FUNCTION transactions_keep_owners() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.customer_id IS DISTINCT FROM OLD.customer_id
     OR NEW.project_id IS DISTINCT FROM OLD.project_id
     OR NEW.environment IS DISTINCT FROM OLD.environment THEN
    RAISE EXCEPTION 'a transaction cannot change its customers, project or environment'
      USING ERRCODE = 'check_violation';
  END IF;
  -- a separate test: only transfers have a recipient column
  IF TG_TABLE_NAME = 'chain_transactions' THEN
    IF NEW.to_customer_id IS DISTINCT FROM OLD.to_customer_id THEN
      RAISE EXCEPTION 'a transaction cannot change its customers, project or environment'
        USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER transactions_owners_fixed
  BEFORE UPDATE OF customer_id, project_id, environment ON transactions
  FOR EACH ROW EXECUTE FUNCTION transactions_keep_owners();
CREATE TRIGGER chain_transactions_owners_fixed
  BEFORE UPDATE OF customer_id, to_customer_id, project_id, environment ON chain_transactions
  FOR EACH ROW EXECUTE FUNCTION transactions_keep_owners();
