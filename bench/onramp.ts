/**
 * The write path: on-ramp creations per second, each with its limit check (customer row lock, usage sum,
 * insert, outbox event, in one transaction), 50 connections spread over the seeded customers, all
 * approved for the run. Every answer must be 201. Afterwards every acknowledged creation must be in the
 * database: autocannon stops at its deadline without counting the answers still in flight, so the
 * database may hold up to one more transaction per connection and run than the 201s counted, never fewer.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { connectPostgres } from '../src/db/postgres.ts';
import { authorization, type BenchContext, serviceEnv } from './context.ts';
import { median, settle } from './load.ts';
import { startChild, waitUntilReady } from './processes.ts';
import { table } from './report.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** Approves every customer of the tenant (the seed leaves some unapproved) and returns their ids. */
async function approvedCustomers(ctx: BenchContext): Promise<string[]> {
  const db = connectPostgres(ctx.databaseUrl, { max: 1 });
  try {
    await db.query(
      `UPDATE verifications SET status = 'APPROVED',
              status_reason = '{"rejectLabels":[],"rejectSubLabels":[],"documents":[]}', updated_at = now()
        WHERE project_id = $1 AND environment = $2`,
      [ctx.tenant.projectId, ctx.tenant.environment],
    );
    const rows = await db.query<{ id: string }>(
      'SELECT id FROM customers WHERE project_id = $1 AND environment = $2 ORDER BY id',
      [ctx.tenant.projectId, ctx.tenant.environment],
    );
    return rows.map((row) => row.id);
  } finally {
    await db.close();
  }
}

async function countTransactions(ctx: BenchContext): Promise<number> {
  const db = connectPostgres(ctx.databaseUrl, { max: 1 });
  try {
    const rows = await db.query<{ n: bigint }>(
      'SELECT count(*) AS n FROM transactions WHERE project_id = $1',
      [ctx.tenant.projectId],
    );
    return Number(rows[0]!.n);
  } finally {
    await db.close();
  }
}

type WriteRun = { rps: number; p50: number; p99: number; created: number; other: number; errors: number };

async function drive(
  origin: string,
  headers: Record<string, string>,
  customers: string[],
  connections: number,
  seconds: number,
): Promise<WriteRun> {
  let next = 0;
  const result = await autocannon({
    url: origin,
    connections,
    duration: seconds,
    timeout: 10,
    headers: { ...headers, 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        path: '/transactions/on-ramp',
        // each request names the next customer, so concurrent requests mostly lock different rows
        setupRequest: (request) => {
          const customerId = customers[next++ % customers.length];
          return { ...request, body: JSON.stringify({ customerId, currency: 'BRL', amount: '10.00' }) };
        },
      },
    ],
  });
  const created = result.statusCodeStats?.['201' as keyof typeof result.statusCodeStats]?.count ?? 0;
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    created,
    other: result.requests.total - created,
    errors: result.errors + result.timeouts,
  };
}

export async function measureOnRamp(ctx: BenchContext): Promise<number> {
  const { settings } = ctx;
  const customers = await approvedCustomers(ctx);
  const service = await serviceEnv(ctx);
  const child = startChild('service', 'src/main.ts', { ...service.env, PONTE_PIX_KEY: randomUUID() });
  await waitUntilReady(child, `${service.origin}/readyz`);
  const headers = authorization(ctx);
  log(`\nOn-ramp creations over ${customers.length} approved customers, ${settings.connections} connections`);

  const warmup = await drive(
    service.origin,
    headers,
    customers,
    settings.connections,
    settings.warmupSeconds,
  );
  const runs: WriteRun[] = [];
  for (let i = 0; i < settings.runs; i++) {
    await settle();
    runs.push(await drive(service.origin, headers, customers, settings.connections, settings.runSeconds));
  }
  const all = [warmup, ...runs];
  const created = all.reduce((sum, r) => sum + r.created, 0);
  const other = all.reduce((sum, r) => sum + r.other, 0);
  const errors = all.reduce((sum, r) => sum + r.errors, 0);
  log(
    table(
      ['target', 'req/s', 'p50 ms', 'p99 ms', 'non-201', 'errors'],
      [
        [
          'POST /transactions/on-ramp',
          median(runs.map((r) => r.rps)).toFixed(0),
          String(median(runs.map((r) => r.p50))),
          String(median(runs.map((r) => r.p99))),
          String(other),
          String(errors),
        ],
      ],
    ),
  );
  const stored = await countTransactions(ctx);
  const inFlightBound = settings.connections * all.length;
  log(
    `transactions stored: ${stored}; 201 answers counted: ${created} (in flight at the deadlines: at most ${inFlightBound})`,
  );
  if (other > 0 || errors > 0) {
    log('FAILED: every on-ramp creation must answer 201');
    return 1;
  }
  if (stored < created || stored > created + inFlightBound) {
    log('FAILED: the transactions stored do not match the creations acknowledged');
    return 1;
  }
  return 0;
}
