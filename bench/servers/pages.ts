/**
 * The page queries of the list baselines: the same SELECT of the page the service runs (columns, filter,
 * order, limit), as a named statement through a pg Pool, answered as `{ data: rows }` with no total, no
 * presenter and no schema.
 */
import pg from 'pg';

const LIMIT_REQUEST_PAGE = `SELECT id, customer_id, project_id, environment, requested_single, requested_daily,
       requested_monthly, approved_single, approved_daily, approved_monthly, supporting_document_type,
       supporting_document_id, status, review_comment, created_at, updated_at
  FROM limit_requests
 WHERE customer_id = $1 AND project_id = $2 AND environment = $3
 ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`;

const CUSTOMER_PAGE = `SELECT c.id, c.project_id, c.environment, c.type, c.name, c.tax_id, c.country, c.email,
       c.birth_date, c.incorporation_date, c.created_at, c.updated_at,
       v.id AS verification_id, v.status AS verification_status, v.level AS verification_level
  FROM customers c JOIN verifications v ON v.customer_id = c.id
 WHERE c.project_id = $1 AND c.environment = $2
 ORDER BY c.created_at DESC, c.id DESC LIMIT $3 OFFSET $4`;

export function openPages(url: string, max: number) {
  pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  return {
    async limitRequests(customerId: string, projectId: string, environment: string, limit: number) {
      const values = [customerId, projectId, environment, limit, 0];
      return (await pool.query({ name: 'limit_request_page', text: LIMIT_REQUEST_PAGE, values })).rows;
    },
    async customers(projectId: string, environment: string, limit: number) {
      const values = [projectId, environment, limit, 0];
      return (await pool.query({ name: 'customer_page', text: CUSTOMER_PAGE, values })).rows;
    },
    close: () => pool.end(),
  };
}
