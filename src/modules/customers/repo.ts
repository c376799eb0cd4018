import type { ListWindow } from '../../core/pagination.ts';
import { type AnyReadFact, readFact } from '../../db/one-statement.ts';
import { listPages } from '../../db/page-query.ts';
import type { Executor } from '../../db/types.ts';
import type { Environment, Tenant } from '../../lib/environment.ts';
import type { VerificationStatus } from '../verifications/state.ts';

export type CustomerType = 'INDIVIDUAL' | 'BUSINESS';

export type CustomerRow = {
  id: string;
  project_id: string;
  environment: Environment;
  type: CustomerType;
  name: string;
  tax_id: string;
  country: string;
  email: string;
  birth_date: string | null;
  incorporation_date: string | null;
  /** The partner's own keys and values; null when none were given. */
  metadata?: Record<string, string> | null;
  created_at: Date;
  updated_at: Date;
  /** when the customer accepted the terms of service (read, never inserted: set by the terms page) */
  tos_accepted_at?: Date | null;
};

export type CustomerWithVerification = CustomerRow & {
  verification_id: string;
  verification_status: VerificationStatus;
  verification_level: 'STANDARD';
  /** whether the customer is asked to accept the terms (customers from before terms are not) */
  tos_required: boolean;
  /** the reviewer approved the customer's own documents (a business then waits for its parties) */
  verification_review_approved: boolean;
  /** the verification's `statusReason.rejectLabels` */
  verification_reject_labels: string[] | null;
};

const COLUMNS = `id, project_id, environment, type, name, tax_id, country, email, birth_date, incorporation_date,
  created_at, updated_at, tos_accepted_at, tos_required, metadata`;

/**
 * A customer's verification as its rows carry it, from the verifications joined as `v`: with what the
 * KYB rules read of it, so that a customer's requirements need no second read of these rows.
 */
const VERIFICATION_COLUMNS = `v.id AS verification_id, v.status AS verification_status, v.level AS verification_level,
  v.review_approved_at IS NOT NULL AS verification_review_approved, v.status_reason -> 'rejectLabels' AS verification_reject_labels`;

const SELECT = `SELECT ${COLUMNS.split(',')
  .map((column) => `c.${column.trim()}`)
  .join(', ')}, ${VERIFICATION_COLUMNS}
  FROM customers c JOIN verifications v ON v.customer_id = c.id`;

export async function insertCustomer(db: Executor, row: CustomerRow): Promise<void> {
  await db.query(
    `INSERT INTO customers (id, project_id, environment, type, name, tax_id, country, email, birth_date,
                            incorporation_date, created_at, updated_at, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      row.id,
      row.project_id,
      row.environment,
      row.type,
      row.name,
      row.tax_id,
      row.country,
      row.email,
      row.birth_date,
      row.incorporation_date,
      row.created_at,
      row.updated_at,
      row.metadata ? JSON.stringify(row.metadata) : null,
    ],
  );
}

/** The id of the tenant's customer with this (stored, formatted) taxId, if any. */
export async function findCustomerIdByTaxId(
  db: Executor,
  tenant: Tenant,
  taxId: string,
): Promise<string | undefined> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM customers WHERE project_id = $1 AND environment = $2 AND tax_id = $3',
    [tenant.projectId, tenant.environment, taxId],
  );
  return rows[0]?.id;
}

export async function findCustomer(
  db: Executor,
  tenant: Tenant,
  id: string,
): Promise<CustomerWithVerification | undefined> {
  const rows = await db.query<CustomerWithVerification>(
    `${SELECT} WHERE c.id = $1 AND c.project_id = $2 AND c.environment = $3`,
    [id, tenant.projectId, tenant.environment],
  );
  return rows[0];
}

/** The names of the tenant's customers among `ids`, by id. */
export async function customerNames(
  db: Executor,
  tenant: Tenant,
  ids: string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: string; name: string }>(
    'SELECT id, name FROM customers WHERE project_id = $1 AND environment = $2 AND id = ANY($3::uuid[])',
    [tenant.projectId, tenant.environment, ids],
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}

/**
 * One customer of the tenant with its verification (none for an id of another tenant), as a fact read
 * with others in one statement (`combinedFacts`): the customer's answer reads its requirements beside it.
 */
export const customerFact = readFact<
  { tenant: Tenant; id: string },
  CustomerWithVerification,
  CustomerWithVerification | undefined
>({
  text: `${SELECT} WHERE c.id = $1 AND c.project_id = $2 AND c.environment = $3`,
  types: ['uuid', 'uuid', 'text'],
  params: (read) => [read.id, read.tenant.projectId, read.tenant.environment],
  // the row's other columns (the facts read beside it) are never answered: presenters name their fields
  decode: (row) => (row.id === null || row.id === undefined ? undefined : (row as CustomerWithVerification)),
});

/** Locks the customer row: serialises changes that depend on the customer's state (limits, requests). */
export async function lockCustomer(
  db: Executor,
  tenant: Tenant,
  id: string,
): Promise<CustomerWithVerification | undefined> {
  const rows = await db.query<CustomerWithVerification>(
    `${SELECT} WHERE c.id = $1 AND c.project_id = $2 AND c.environment = $3 FOR NO KEY UPDATE OF c`,
    [id, tenant.projectId, tenant.environment],
  );
  return rows[0];
}

/**
 * Locks several customers, each of its own tenant, with one statement: the rows found. The rows are
 * locked in id order, so that two such statements never wait on each other in a cycle.
 */
export async function lockCustomers(
  db: Executor,
  keys: readonly { tenant: Tenant; id: string }[],
): Promise<CustomerWithVerification[]> {
  return db.query<CustomerWithVerification>(
    `${SELECT}
       JOIN unnest($1::uuid[], $2::uuid[], $3::text[]) AS k(id, project_id, environment)
         ON c.id = k.id AND c.project_id = k.project_id AND c.environment = k.environment
      ORDER BY c.id FOR NO KEY UPDATE OF c`,
    [
      keys.map((key) => key.id),
      keys.map((key) => key.tenant.projectId),
      keys.map((key) => key.tenant.environment),
    ],
  );
}

/**
 * A page of the tenant's customers, newest first, and their total (the count the database keeps,
 * migration 023, not a count over every customer of the project), in one statement coalesced with the
 * pages asked for meanwhile (`batchedPages`).
 */
type CustomerPageRead = { tenant: Tenant; window: ListWindow };

export function customerPageReader(
  db: Executor,
  perRow?: AnyReadFact,
): (read: CustomerPageRead) => Promise<{ rows: CustomerWithVerification[]; total: number }> {
  const readPage = listPages<CustomerPageRead, CustomerWithVerification>(db, {
    perRow,
    keys: [
      ['project_id', 'uuid'],
      ['environment', 'text'],
    ],
    values: (read) => [read.tenant.projectId, read.tenant.environment],
    // an aggregate, read once per page: a scalar subquery here would be pulled up into the statement
    // and read again for every row of the page
    totalSql: `SELECT coalesce(sum(k.total), 0) AS total FROM customer_counts k
                  WHERE k.project_id = r.project_id AND k.environment = r.environment`,
    pageSql: ({
      after,
      tail,
    }) => `${SELECT} WHERE c.project_id = r.project_id AND c.environment = r.environment${after('c')}
               ORDER BY c.created_at DESC, c.id DESC ${tail}`,
  });
  return async (read) => {
    const { rows, total } = await readPage(read);
    return { rows, total: total ?? 0 };
  };
}

/** Whose customers a search looks among: a tenant's, or (an operator's) a project's, an environment's, all. */
export type CustomerScope = { projectId?: string | undefined; environment?: Environment | undefined };

/**
 * Customers whose name contains the text, whose taxId matches it (punctuation ignored), or whose
 * e-mail contains it; newest first.
 */
export async function searchCustomers(
  db: Executor,
  scope: CustomerScope,
  text: string,
  limit: number,
  offset: number,
): Promise<{ rows: CustomerWithVerification[]; total: number }> {
  const like = `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const digits = text.replace(/[.\-/\s]/g, '');
  const taxId = /^[0-9A-Za-z]{3,}$/.test(digits) ? digits : '';
  const params: unknown[] = [like, taxId];
  const scoped = (['project_id', 'environment'] as const).flatMap((column) => {
    const value = column === 'project_id' ? scope.projectId : scope.environment;
    if (value === undefined) return [];
    params.push(value);
    return [`c.${column} = $${params.length} AND `];
  });
  const where = `${scoped.join('')}(c.name ILIKE $1 OR c.email ILIKE $1 OR (length($2) > 0 AND regexp_replace(c.tax_id, '[^0-9A-Za-z]', '', 'g') LIKE $2 || '%'))`;
  const [rows, count] = await Promise.all([
    db.query<CustomerWithVerification>(
      `${SELECT} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    ),
    db.query<{ n: bigint }>(`SELECT count(*) AS n FROM customers c WHERE ${where}`, params),
  ]);
  return { rows, total: Number(count[0]!.n) };
}
