/**
 * The write path: on-ramp creations per second, each with its limit check (customer row lock, running
 * usage totals, BR Code, insert, outbox event, in one transaction), 50 connections spread over the seeded
 * customers, all approved for the run, against the minimal write transaction (servers/write.ts: lock,
 * insert, commit) in the same run, interleaved; the creation must reach `writeTarget` of it. Every answer
 * must be 201. Afterwards every acknowledged creation must be in the
 * database: autocannon stops at its deadline without counting the answers still in flight, so the
 * database may hold up to one more transaction per connection and run than the 201s counted, never fewer.
 */
import { randomUUID } from 'node:crypto';
import { connectPostgres } from '../src/db/postgres.ts';
import { authorization, type BenchContext, databaseName, minimalServerEnv, serviceEnv } from './context.ts';
import { median, settle } from './load.ts';
import { startChild, waitUntilReady } from './processes.ts';
import { loadWindows } from './profile.ts';
import { table } from './report.ts';
import { driveWrites, microseconds, otherAnswers, type WriteRun } from './writes.ts';

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
      "SELECT count(*) AS n FROM transactions WHERE project_id = $1 AND br_code <> 'baseline'",
      [ctx.tenant.projectId],
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

export async function drive(
  origin: string,
  headers: Record<string, string>,
  customers: string[],
  connections: number,
  seconds: number,
  measured: { pid?: number | undefined; database?: string | undefined } = {},
): Promise<WriteRun> {
  return driveWrites(
    { origin, path: '/transactions/on-ramp', headers, body: onRampBody(customers), ...measured },
    connections,
    seconds,
  );
}

export async function measureOnRamp(ctx: BenchContext): Promise<number> {
  const { settings } = ctx;
  const customers = await approvedCustomers(ctx);
  const service = await serviceEnv(ctx);
  const minimal = await minimalServerEnv(ctx, [settings.minimalDriver]);
  const child = startChild(
    'service',
    'src/main.ts',
    { ...service.env, PONTE_PIX_KEY: randomUUID() },
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

  const targets = [
    {
      name: 'baseline: minimal write transaction (lock, insert, commit)',
      origin: minimal.origin,
      pid: minimalChild.process.pid,
      service: false,
    },
    { name: 'POST /transactions/on-ramp', origin: service.origin, pid: child.process.pid, service: true },
  ];
  const drives = (target: (typeof targets)[number], seconds: number) =>
    drive(target.origin, headers, customers, settings.connections, seconds, { pid: target.pid, database });
  const results = new Map<string, WriteRun[]>(targets.map((t) => [t.name, []]));
  const baselineRuns: WriteRun[] = [];
  const serviceRuns: WriteRun[] = [];
  for (const target of targets) {
    const warm = await drives(target, settings.warmupSeconds);
    (target.service ? serviceRuns : baselineRuns).push(warm);
  }
  for (let i = 0; i < settings.runs; i++) {
    for (const target of i % 2 === 0 ? targets : [...targets].reverse()) {
      await settle();
      const result = await drives(target, settings.runSeconds);
      if (target.service) loadWindows.push(result.window);
      log(
        `  ${target.name}: ${result.rps.toFixed(0)} req/s, server CPU ${microseconds(result.cpuUs)} µs/req, ` +
          `PostgreSQL CPU ${microseconds(result.dbCpuUs)} µs/req`,
      );
      results.get(target.name)!.push(result);
      (target.service ? serviceRuns : baselineRuns).push(result);
    }
  }
  const baselineRps = median(results.get(targets[0]!.name)!.map((r) => r.rps));
  const serviceRps = median(results.get(targets[1]!.name)!.map((r) => r.rps));
  const ratio = serviceRps / baselineRps;
  const cpu = (runs: WriteRun[], pick: (run: WriteRun) => number | undefined) => {
    const values = runs.map(pick).filter((value): value is number => value !== undefined);
    return values.length === 0 ? '' : median(values).toFixed(0);
  };
  log(
    table(
      [
        'target',
        'req/s',
        'p50 ms',
        'p99 ms',
        'server µs/req',
        'PostgreSQL µs/req',
        'non-201',
        'errors',
        'x minimal write',
        'verdict',
      ],
      targets.map((target, index) => {
        const runs = results.get(target.name)!;
        return [
          target.name,
          median(runs.map((r) => r.rps)).toFixed(0),
          String(median(runs.map((r) => r.p50))),
          String(median(runs.map((r) => r.p99))),
          cpu(runs, (r) => r.cpuUs),
          cpu(runs, (r) => r.dbCpuUs),
          String(runs.reduce((sum, r) => sum + r.other, 0)),
          String(runs.reduce((sum, r) => sum + r.errors, 0)),
          index === 0 ? '' : ratio.toFixed(2),
          index === 0
            ? ''
            : ratio >= settings.writeTarget
              ? `ok (>= ${settings.writeTarget})`
              : `BELOW ${settings.writeTarget}`,
        ];
      }),
    ),
  );
  // Warm-ups included: every answer of every run must be 201.
  const created = serviceRuns.reduce((sum, r) => sum + r.created, 0);
  const stored = await countTransactions(ctx);
  // autocannon stops at each run's deadline without counting the answers still in flight; the service
  // still commits those, so the database may hold up to one creation per connection and run more.
  const inFlightBound = settings.connections * serviceRuns.length;
  log(
    `transactions stored by the service: ${stored}; 201 answers counted: ${created} (in flight at the deadlines: at most ${inFlightBound})`,
  );
  let failed = false;
  for (const [label, runs] of [
    ['the minimal write transaction', baselineRuns],
    ['on-ramp creation', serviceRuns],
  ] as const) {
    const other = runs.reduce((sum, r) => sum + r.other, 0);
    const errors = runs.reduce((sum, r) => sum + r.errors, 0);
    if (other > 0 || errors > 0) {
      log(
        `FAILED: every request of ${label} must answer 201: ${other} other answers (${otherAnswers(runs)}), ` +
          `${errors} socket errors or timeouts`,
      );
      failed = true;
    }
  }
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
