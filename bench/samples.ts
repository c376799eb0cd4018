/**
 * The resources the load is spread over, drawn at random from the seeded data: reads by id rotate over a
 * sample of rows rather than hammering a single one.
 */
import pg from 'pg';
import type { Tenant } from '../src/lib/environment.ts';

export type Samples = {
  bankAccounts: string[];
  customers: string[];
  transactionIds: string[];
  limitRequests: { id: string; customerId: string }[];
  verifications: { id: string; customerId: string }[];
  /** Customers with exactly `smallRequests` limit requests (and as many on-ramps). */
  smallListCustomers: string[];
  largeListCustomer: string;
  /** How many transactions the tenant has, in both tables. */
  transactionTotal: number;
};

const SAMPLE = 1_000;

export async function drawSamples(
  url: string,
  tenant: Tenant,
  sizes: { smallRequests: number; largeRequests: number },
): Promise<Samples> {
  const client = new pg.Client({ connectionString: url });
  // a dropped connection fails the statement in flight; the client's own error event adds nothing
  client.on('error', () => {});
  await client.connect();
  try {
    const t = [tenant.projectId, tenant.environment];
    const ids = async (sql: string, params: unknown[]) =>
      (await client.query<{ id: string; customer_id: string }>(sql, params)).rows;
    const accounts = await ids(
      `SELECT id FROM bank_accounts WHERE project_id = $1 AND environment = $2 AND deleted_at IS NULL
        ORDER BY random() LIMIT ${SAMPLE}`,
      t,
    );
    const customers = await ids(
      `SELECT id FROM customers WHERE project_id = $1 AND environment = $2 ORDER BY random() LIMIT ${SAMPLE}`,
      t,
    );
    const ramps = await ids(
      `SELECT id FROM transactions WHERE project_id = $1 AND environment = $2 ORDER BY random() LIMIT ${SAMPLE}`,
      t,
    );
    const requests = await ids(
      `SELECT id, customer_id FROM limit_requests WHERE project_id = $1 AND environment = $2
        ORDER BY random() LIMIT ${SAMPLE}`,
      t,
    );
    const verifications = await ids(
      `SELECT id, customer_id FROM verifications WHERE project_id = $1 AND environment = $2
        ORDER BY random() LIMIT ${SAMPLE}`,
      t,
    );
    const byCount = (count: number) =>
      ids(
        `SELECT customer_id AS id FROM limit_requests WHERE project_id = $1 AND environment = $2
          GROUP BY customer_id HAVING count(*) = $3 ORDER BY random() LIMIT 100`,
        [...t, count],
      );
    const small = await byCount(sizes.smallRequests);
    const large = await byCount(sizes.largeRequests);
    if (
      accounts.length === 0 ||
      customers.length === 0 ||
      ramps.length === 0 ||
      requests.length === 0 ||
      small.length === 0 ||
      large.length !== 1
    ) {
      throw new Error('the seeded data set is missing rows the benchmark needs');
    }
    const total = await client.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM transactions WHERE project_id = $1 AND environment = $2)
            + (SELECT count(*) FROM chain_transactions WHERE project_id = $1 AND environment = $2) AS n`,
      t,
    );
    const pair = (row: { id: string; customer_id: string }) => ({ id: row.id, customerId: row.customer_id });
    return {
      bankAccounts: accounts.map((row) => row.id),
      customers: customers.map((row) => row.id),
      transactionIds: ramps.map((row) => row.id),
      limitRequests: requests.map(pair),
      verifications: verifications.map(pair),
      smallListCustomers: small.map((row) => row.id),
      largeListCustomer: large[0]!.id,
      transactionTotal: Number(total.rows[0]!.n),
    };
  } finally {
    await client.end();
  }
}
