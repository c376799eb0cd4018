-- How many customers each project has in each environment: the exact `pagination.total` of
-- `GET /customers`, read as one row instead of counted over every customer of the project on every page.
-- Kept by the triggers below under any writer (the API, bulk loads, operators), so it cannot drift from
-- the rows it counts.
--
-- Every customer created in a project updates the same row, so the update waits for the commit: the
-- triggers are deferred, and the row is locked only while the creating transaction commits, not for the
-- whole of it.
CREATE TABLE customer_counts (
  project_id  uuid NOT NULL REFERENCES projects (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  total       bigint NOT NULL CHECK (total >= 0),
  PRIMARY KEY (project_id, environment)
);

-- No customer may be created or removed while the counts are taken.
LOCK TABLE customers IN SHARE MODE;

INSERT INTO customer_counts (project_id, environment, total)
SELECT project_id, environment, count(*)
  FROM customers
 GROUP BY project_id, environment;

CREATE FUNCTION customer_counts_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_counts AS k (project_id, environment, total)
    VALUES (NEW.project_id, NEW.environment, 1)
    ON CONFLICT (project_id, environment) DO UPDATE SET total = k.total + 1;
  ELSE
    UPDATE customer_counts SET total = total - 1
     WHERE project_id = OLD.project_id AND environment = OLD.environment;
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER customers_count
  AFTER INSERT OR DELETE ON customers
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION customer_counts_change();

-- A customer belongs to one project and environment for good: the count depends on it.
CREATE FUNCTION customers_keep_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.project_id IS DISTINCT FROM OLD.project_id OR NEW.environment IS DISTINCT FROM OLD.environment THEN
    RAISE EXCEPTION 'a customer cannot change its project or environment' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER customers_tenant_fixed
  BEFORE UPDATE OF project_id, environment ON customers
  FOR EACH ROW EXECUTE FUNCTION customers_keep_tenant();
