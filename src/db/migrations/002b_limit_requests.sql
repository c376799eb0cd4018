-- Limit requests: the rules of a request's content, held by the database as well as by the service, and
-- a per-customer count of requests so that a page of a long list answers its exact total without
-- counting every row.

-- Requested amounts are ordered single <= daily <= monthly (where given); the supporting document is a
-- known type and comes as a pair (type and id, or neither).
ALTER TABLE limit_requests
  ADD CONSTRAINT limit_requests_requested_order CHECK (
    requested_single <= requested_daily
    AND requested_daily <= requested_monthly
    AND requested_single <= requested_monthly
  ),
  ADD CONSTRAINT limit_requests_supporting_document_type CHECK (
    supporting_document_type IN ('LIMIT_REQUEST_BANK_STATEMENT')
  ),
  ADD CONSTRAINT limit_requests_supporting_document_pair CHECK (
    (supporting_document_type IS NULL) = (supporting_document_id IS NULL)
  );

-- How many limit requests each customer has, kept by the triggers below under any writer (the API,
-- bulk loads, operators), so it cannot drift from the rows it counts.
CREATE TABLE limit_request_counts (
  customer_id uuid PRIMARY KEY REFERENCES customers (id),
  project_id  uuid NOT NULL REFERENCES projects (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  total       bigint NOT NULL CHECK (total >= 0)
);

INSERT INTO limit_request_counts (customer_id, project_id, environment, total)
SELECT customer_id, project_id, environment, count(*)
  FROM limit_requests
 GROUP BY customer_id, project_id, environment;

CREATE FUNCTION limit_request_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO limit_request_counts AS k (customer_id, project_id, environment, total)
  SELECT customer_id, project_id, environment, count(*)
    FROM inserted
   GROUP BY customer_id, project_id, environment
  ON CONFLICT (customer_id) DO UPDATE SET total = k.total + EXCLUDED.total;
  RETURN NULL;
END
$$;

CREATE FUNCTION limit_request_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE limit_request_counts AS k
     SET total = k.total - d.n
    FROM (SELECT customer_id, count(*) AS n FROM deleted GROUP BY customer_id) AS d
   WHERE k.customer_id = d.customer_id;
  RETURN NULL;
END
$$;

-- A request belongs to one customer (and its tenant) for good: the count depends on it.
CREATE FUNCTION limit_requests_keep_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.customer_id IS DISTINCT FROM OLD.customer_id
     OR NEW.project_id IS DISTINCT FROM OLD.project_id
     OR NEW.environment IS DISTINCT FROM OLD.environment THEN
    RAISE EXCEPTION 'a limit request cannot change its customer, project or environment'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER limit_requests_count_insert
  AFTER INSERT ON limit_requests REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION limit_request_counts_add();

CREATE TRIGGER limit_requests_count_delete
  AFTER DELETE ON limit_requests REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION limit_request_counts_remove();

CREATE TRIGGER limit_requests_owner_fixed
  BEFORE UPDATE OF customer_id, project_id, environment ON limit_requests
  FOR EACH ROW EXECUTE FUNCTION limit_requests_keep_owner();
