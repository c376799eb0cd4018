/**
 * Loads the benchmark data set with set-based SQL (INSERT ... SELECT over unnest and generate_series), in
 * one transaction, into the service's own tables. Every row is one the API could have written: formatted
 * and valid tax ids, legal statuses, single <= daily <= monthly, approved amounts only on decided
 * requests, at most one IN_REVIEW request per customer and never two under review at once in history.
 *
 * Customers (n from 1): n = 1 is the large customer (`largeRequests` limit requests); every tenth customer
 * has a verification that is not APPROVED (and so no limit requests); every other customer is APPROVED
 * with `smallRequests` requests. Each customer owns `accountsPerCustomer` PIX accounts: the first keyed by
 * its own tax id, then e-mail, phone and random (EVP) keys; every tenth is a third-party individual holder;
 * every fiftieth has been deleted. Each approved customer has `smallRequests` on-ramps too (the large one
 * `largeRequests`), every one EXPIRED: a charge issued, never paid, so no money moved and no ledger entry
 * is owed; their BR Codes read `seeded`, so they can be told from the ones a bench creates.
 */
import pg from 'pg';
import type { Tenant } from '../src/lib/environment.ts';
import { nthCnpj, nthCpf } from './tax-ids.ts';

export type SeedShape = {
  customers: number;
  accountsPerCustomer: number;
  largeRequests: number;
  smallRequests: number;
};

export type SeedCounts = {
  customers: number;
  bankAccounts: number;
  limitRequests: number;
  transactions: number;
  seconds: number;
};

/** The BR Code of the seeded on-ramps. */
export const SEEDED_BR_CODE = 'seeded';

const UUID7 = `CREATE FUNCTION pg_temp.uuid7(at timestamptz) RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
           PLACING substring(int8send(floor(extract(epoch FROM at) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
         52, 1), 53, 1), 'hex')::uuid
$$`;

const NOT_APPROVED = ['NOT_STARTED', 'UNDER_VERIFICATION', 'TEMPORARY_REJECTION', 'FINAL_REJECTION'];

const TEMPORARY_REASON = {
  rejectLabels: ['screenshot', 'unsatisfactory_photos'],
  rejectSubLabels: ['proofOfAddress_listOfDocs', 'badPhoto'],
  documents: [
    {
      type: 'PASSPORT',
      status: 'TEMPORARY_REJECTION',
      comment: 'The photo of the passport page is blurred; please upload a sharper one.',
      rejectLabels: ['unsatisfactory_photos'],
    },
  ],
};
const FINAL_REASON = { rejectLabels: ['screenshot'], rejectSubLabels: [], documents: [] };
const EMPTY_REASON = { rejectLabels: [], rejectSubLabels: [], documents: [] };

function customerColumns(shape: SeedShape) {
  const columns = {
    n: [] as number[],
    type: [] as string[],
    name: [] as string[],
    taxId: [] as string[],
    email: [] as string[],
    birthDate: [] as (string | null)[],
    incorporationDate: [] as (string | null)[],
    status: [] as string[],
    requests: [] as number[],
  };
  for (let n = 1; n <= shape.customers; n++) {
    const individual = n % 5 === 2;
    const status = n % 10 === 0 ? NOT_APPROVED[(n / 10) % NOT_APPROVED.length]! : 'APPROVED';
    columns.n.push(n);
    columns.type.push(individual ? 'INDIVIDUAL' : 'BUSINESS');
    columns.name.push(individual ? `Cliente Pessoa ${n}` : `Empresa Exemplo ${n} Ltda`);
    columns.taxId.push(individual ? nthCpf(n) : nthCnpj(n));
    columns.email.push(individual ? `cliente${n}@example.com` : `financeiro@empresa${n}.example`);
    columns.birthDate.push(individual ? `19${String(60 + (n % 40)).padStart(2, '0')}-04-12` : null);
    columns.incorporationDate.push(individual ? null : `20${String(n % 20).padStart(2, '0')}-05-14`);
    columns.status.push(status);
    const requests = n === 1 ? shape.largeRequests : shape.smallRequests;
    columns.requests.push(status === 'APPROVED' ? requests : 0);
  }
  return columns;
}

const THIRD_PARTY_HOLDERS = 1_000;

export async function seed(url: string, tenant: Tenant, shape: SeedShape): Promise<SeedCounts> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url });
  // a dropped connection fails the statement in flight; the client's own error event adds nothing
  client.on('error', () => {});
  await client.connect();
  try {
    const c = customerColumns(shape);
    const holders = Array.from({ length: THIRD_PARTY_HOLDERS }, (_, i) => nthCpf(i, 1));
    const params = [tenant.projectId, tenant.environment];
    await client.query('BEGIN');
    await client.query(UUID7);
    await client.query(
      `CREATE TEMP TABLE bench_customers ON COMMIT DROP AS
       SELECT t.n, pg_temp.uuid7(x.at) AS id, t.type, t.name, t.tax_id, t.email, t.birth_date,
              t.incorporation_date, t.status, t.requests, x.at AS created_at
         FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::date[], $7::date[],
                     $8::text[], $9::int[])
              AS t(n, type, name, tax_id, email, birth_date, incorporation_date, status, requests)
        CROSS JOIN LATERAL (SELECT date_trunc('milliseconds', now()) - interval '400 days'
                                   + t.n * interval '1 minute' AS at) x`,
      [c.n, c.type, c.name, c.taxId, c.email, c.birthDate, c.incorporationDate, c.status, c.requests],
    );
    await client.query(
      `INSERT INTO customers (id, project_id, environment, type, name, tax_id, country, email, birth_date,
                              incorporation_date, created_at, updated_at)
       SELECT id, $1, $2, type, name, tax_id, 'BRA', email, birth_date, incorporation_date, created_at, created_at
         FROM bench_customers`,
      params,
    );
    await client.query(
      `INSERT INTO verifications (id, customer_id, project_id, environment, status, level, status_reason,
                                  sandbox_due_at, created_at, updated_at)
       SELECT pg_temp.uuid7(created_at), id, $1, $2, status, 'STANDARD',
              CASE status WHEN 'TEMPORARY_REJECTION' THEN $3::jsonb
                          WHEN 'FINAL_REJECTION' THEN $4::jsonb ELSE $5::jsonb END,
              NULL, created_at,
              created_at + CASE status WHEN 'NOT_STARTED' THEN interval '0' ELSE interval '2 hours' END
         FROM bench_customers`,
      [...params, TEMPORARY_REASON, FINAL_REASON, EMPTY_REASON].map((value) =>
        typeof value === 'object' ? JSON.stringify(value) : value,
      ),
    );
    // Requests start a day after the customer (approved after two hours), one every 30 minutes, each
    // reviewed 20 minutes after it was made; only a customer's newest may still be IN_REVIEW.
    await client.query(
      `INSERT INTO limit_requests (id, customer_id, project_id, environment, requested_single, requested_daily,
                                   requested_monthly, approved_single, approved_daily, approved_monthly,
                                   supporting_document_type, supporting_document_id, status, review_comment,
                                   created_at, updated_at)
       SELECT pg_temp.uuid7(r.at), c.id, $1, $2, r.single, r.base * 2, r.base * 4,
              CASE WHEN r.status IN ('APPROVED', 'PARTIALLY_APPROVED') THEN r.single END,
              CASE WHEN r.status IN ('APPROVED', 'PARTIALLY_APPROVED') THEN r.base * 2 END,
              CASE r.status WHEN 'APPROVED' THEN r.base * 4 WHEN 'PARTIALLY_APPROVED' THEN r.base * 2 END,
              NULL, NULL, r.status,
              CASE r.status WHEN 'PARTIALLY_APPROVED' THEN 'Monthly limit granted at half the amount requested'
                            WHEN 'REJECTED' THEN 'The bank statement does not support the requested volume' END,
              r.at, CASE r.status WHEN 'IN_REVIEW' THEN r.at ELSE r.at + interval '20 minutes' END
         FROM bench_customers c
        CROSS JOIN LATERAL generate_series(1, c.requests) AS j
        CROSS JOIN LATERAL (
          SELECT c.created_at + interval '1 day' + j * interval '30 minutes' AS at,
                 (1000000 + (j % 97) * 10000)::bigint AS base,
                 CASE WHEN j % 5 = 0 THEN NULL ELSE (1000000 + (j % 97) * 10000)::bigint END AS single,
                 CASE WHEN j = c.requests AND c.n % 3 = 0 THEN 'IN_REVIEW'
                      ELSE (ARRAY['APPROVED', 'PARTIALLY_APPROVED', 'REJECTED', 'APPROVED'])[j % 4 + 1] END AS status
        ) r`,
      params,
    );
    await client.query(
      `INSERT INTO bank_accounts (id, customer_id, project_id, environment, name, type, rail, currency, key_type,
                                  key_value, holder_type, holder_relationship, holder_legal_name, holder_tax_id,
                                  holder_incorporation_date, holder_email, holder_address,
                                  holder_verification_status, holder_verification_level, created_at, updated_at,
                                  deleted_at)
       SELECT pg_temp.uuid7(a.at), c.id, $1, $2, 'Conta PIX ' || k, 'EXTERNAL', 'PIX', 'BRL', a.key_type,
              CASE a.key_type WHEN 'CPF' THEN a.tax_id WHEN 'CNPJ' THEN a.tax_id
                              WHEN 'EMAIL' THEN 'pix' || c.n || '.' || k || '@ponte-bench.example'
                              WHEN 'PHONE' THEN '+55119' || lpad(((c.n * 1000 + k) % 100000000)::text, 8, '0')
                              ELSE gen_random_uuid()::text END,
              CASE WHEN a.third_party THEN 'INDIVIDUAL' ELSE c.type END,
              CASE WHEN a.third_party THEN 'THIRD_PARTY' ELSE 'SELF' END,
              CASE WHEN a.third_party THEN 'Titular Terceiro ' || k ELSE c.name END,
              a.tax_id,
              CASE WHEN a.third_party THEN NULL ELSE c.incorporation_date END,
              CASE WHEN a.third_party THEN 'titular' || c.n || '.' || k || '@example.com' ELSE c.email END,
              jsonb_build_object('line1', 'Avenida Paulista, ' || (100 + k), 'city', 'São Paulo', 'state', 'SP',
                                 'postalCode', '01310-100', 'country', 'BRA'),
              CASE WHEN a.third_party AND k % 20 = 0 THEN 'APPROVED'
                   WHEN a.third_party THEN 'UNDER_VERIFICATION'
                   WHEN c.status = 'APPROVED' THEN 'APPROVED' ELSE 'UNDER_VERIFICATION' END,
              'BASIC', a.at, CASE WHEN k % 50 = 0 THEN a.at + interval '1 day' ELSE a.at END,
              CASE WHEN k % 50 = 0 THEN a.at + interval '1 day' END
         FROM bench_customers c
        CROSS JOIN generate_series(1, $3::int) AS k
        CROSS JOIN LATERAL (SELECT k % 10 = 0 AS third_party) t
        CROSS JOIN LATERAL (
          SELECT c.created_at + interval '3 hours' + k * interval '10 minutes' AS at,
                 CASE WHEN t.third_party THEN ($4::text[])[(c.n * 7 + k) % ${THIRD_PARTY_HOLDERS} + 1]
                      ELSE c.tax_id END AS tax_id,
                 CASE WHEN t.third_party THEN 'CPF'
                      WHEN k = 1 THEN CASE c.type WHEN 'BUSINESS' THEN 'CNPJ' ELSE 'CPF' END
                      WHEN k % 4 = 2 THEN 'EMAIL' WHEN k % 4 = 3 THEN 'PHONE' ELSE 'EVP' END AS key_type,
                 t.third_party
        ) a`,
      [...params, shape.accountsPerCustomer, holders],
    );
    // On-ramps start two days after the customer, one an hour; each charge expired half an hour later.
    await client.query(
      `INSERT INTO transactions (id, customer_id, project_id, environment, type, status, currency, amount,
                                 target_currency, rail, pix_txid, br_code, expires_at, fee_basis_points, fee_flat,
                                 limit_amount_brl, blockchain, failure_reason, timeline, created_at, updated_at)
       SELECT o.id, c.id, $1, $2, 'ON_RAMP', 'EXPIRED', 'BRL', o.amount, 'USDC', 'PIX',
              substr(replace(o.id::text, '-', ''), 1, 25), $3, o.at + interval '30 minutes', 100, 0, o.amount,
              'ETHEREUM', 'No deposit arrived before ' || to_char((o.at + interval '30 minutes') AT TIME ZONE 'UTC',
                                                                   'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              jsonb_build_array(jsonb_build_object('status', 'AWAITING_FUNDS', 'at', o.at),
                                jsonb_build_object('status', 'EXPIRED', 'at', o.at + interval '30 minutes')),
              o.at, o.at + interval '30 minutes'
         FROM bench_customers c
        CROSS JOIN LATERAL generate_series(1, c.requests) AS j
        CROSS JOIN LATERAL (
          SELECT pg_temp.uuid7(c.created_at + interval '2 days' + j * interval '1 hour') AS id,
                 c.created_at + interval '2 days' + j * interval '1 hour' AS at,
                 (10000 + (j % 89) * 2500)::bigint AS amount
        ) o`,
      [...params, SEEDED_BR_CODE],
    );
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE');
    const counts = await client.query<{
      customers: string;
      accounts: string;
      requests: string;
      ramps: string;
    }>(
      `SELECT (SELECT count(*) FROM customers) AS customers, (SELECT count(*) FROM bank_accounts) AS accounts,
              (SELECT count(*) FROM limit_requests) AS requests, (SELECT count(*) FROM transactions) AS ramps`,
    );
    const row = counts.rows[0]!;
    return {
      customers: Number(row.customers),
      bankAccounts: Number(row.accounts),
      limitRequests: Number(row.requests),
      transactions: Number(row.ramps),
      seconds: (performance.now() - started) / 1000,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}
