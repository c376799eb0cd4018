/**
 * The write path: on-ramp creations per second, each with its limit check (customer row lock, running
 * usage totals, BR Code, insert, outbox event, in one transaction), 50 connections spread over the seeded
 * customers, all approved for the run, against the minimal write transaction (servers/write.ts: lock,
 * insert, commit) in the same run, interleaved; the service runs API-only (`PONTE_WORKERS=false`); the creation must reach `writeTarget` of it. Every answer
 * must be 201. Afterwards every acknowledged creation must be in the
 * database: autocannon stops at its deadline without counting the answers still in flight, so the
 * database may hold up to one more transaction per connection and run than the 201s counted, never fewer.
 */
import { connectPostgres } from '../src/db/postgres.ts';
import { authorization, type BenchContext, databaseName, minimalServerEnv, serviceEnv } from './context.ts';
import { startChild, waitUntilReady } from './processes.ts';
import { startBenchPsp } from './psp.ts';
import { SEEDED_BR_CODE } from './seed.ts';
import { BASELINE_BR_CODE } from './servers/write.ts';
import {
  type Contender,
  compareWrites,
  driveWrites,
  non201,
  type WriteRun,
  type WriteTarget,
  writeTable,
} from './writes.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** Approves every customer of the tenant (the seed leaves some unapproved) and returns their ids. */
export async function approvedCustomers(ctx: BenchContext): Promise<string[]> {
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
      'SELECT count(*) AS n FROM transactions WHERE project_id = $1 AND br_code NOT IN ($2, $3)',
      [ctx.tenant.projectId, BASELINE_BR_CODE, SEEDED_BR_CODE],
    );
    return Number(rows[0]!.n);
  } finally {
    await db.close();
  }
}

export type { WriteRun } from './writes.ts';

/** On-ramp creations of 10.00 BRL, each request naming the next customer (so concurrent requests mostly
 * lock different rows). */
export function onRampBody(customers: string[]): () => string {
  let next = 0;
  return () => {
    const customerId = customers[next++ % customers.length];
    return JSON.stringify({ customerId, currency: 'BRL', amount: '10.00' });
  };
}

/** On-ramp creations over `customers` on a server's `/transactions/on-ramp` (the service's, or the
 * minimal write transaction's). */
export function onRampTarget(
  origin: string,
  headers: Record<string, string>,
  customers: string[],
  measured: { pid?: number | undefined; database?: string | undefined } = {},
): WriteTarget {
  return { origin, path: '/transactions/on-ramp', headers, body: onRampBody(customers), ...measured };
}

export async function drive(
  origin: string,
  headers: Record<string, string>,
  customers: string[],
  connections: number,
  seconds: number,
  measured: { pid?: number | undefined; database?: string | undefined } = {},
): Promise<WriteRun> {
  return driveWrites(onRampTarget(origin, headers, customers, measured), connections, seconds);
}

export async function measureOnRamp(ctx: BenchContext): Promise<number> {
  const { settings } = ctx;
  const customers = await approvedCustomers(ctx);
  const service = await serviceEnv(ctx);
  const minimal = await minimalServerEnv(ctx, [settings.minimalDriver]);
  // production on-ramps register their charge at the PSP (the simulator, answering at once)
  const psp = await startBenchPsp();
  const child = startChild(
    'service',
    'src/main.ts',
    // API-only, as docs/SCALING.md splits a deployment: no background job shares the process
    { ...service.env, ...psp.env, PONTE_WORKERS: 'false' },
    settings.profileDir,
  );
  const minimalChild = startChild('minimal baseline', 'bench/servers/minimal.ts', minimal.env);
  await Promise.all([
    waitUntilReady(child, `${service.origin}/readyz`),
    waitUntilReady(minimalChild, `${minimal.origin}/healthz`),
  ]);
  const headers = authorization(ctx);
  const database = databaseName(ctx);
  log(`\nOn-ramp creations over ${customers.length} approved customers, ${settings.connections} connections`);

  const contenders: Contender[] = [
    {
      name: 'baseline: minimal write transaction (lock, insert, commit)',
      target: onRampTarget(minimal.origin, headers, customers, { pid: minimalChild.process.pid, database }),
      service: false,
    },
    {
      name: 'POST /transactions/on-ramp',
      target: onRampTarget(service.origin, headers, customers, { pid: child.process.pid, database }),
      service: true,
    },
  ];
  const compared = await compareWrites(settings, contenders, log);
  const { table, ratios } = writeTable(contenders, compared, settings.writeTarget, 'minimal write');
  log(table);
  const ratio = ratios[1]!;
  const serviceRuns = compared.all[1]!;
  // Warm-ups included: every answer of every run must be 201.
  const created = serviceRuns.reduce((sum, r) => sum + r.created, 0);
  const stored = await countTransactions(ctx);
  // autocannon stops at each run's deadline without counting the answers still in flight; the service
  // still commits those, so the database may hold up to one creation per connection and run more.
  const inFlightBound = settings.connections * serviceRuns.length;
  log(
    `transactions stored by the service: ${stored}; 201 answers counted: ${created} (in flight at the deadlines: at most ${inFlightBound})`,
  );
  let failed = non201(contenders, compared, log);
  if (stored < created || stored > created + inFlightBound) {
    log('FAILED: the transactions stored do not match the creations acknowledged');
    failed = true;
  }
  if (failed) return 1;
  if (ratio < settings.writeTarget) {
    log(`TARGET MISSED: on-ramp creation below ${settings.writeTarget} of the minimal write transaction`);
    return 2;
  }
  return 0;
}
