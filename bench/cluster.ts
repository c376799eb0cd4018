/**
 * `npm run bench -- cluster`: the scale-out configuration, tested. Two service processes behind HAProxy
 * (round robin) share one PostgreSQL through PgBouncer in transaction-pooling mode, both from Debian's
 * packages (installed with apt-get when missing). Through the balancer it runs:
 *   1. a probe of named prepared statements through the pooler (PgBouncer before 1.21 keeps none in
 *      transaction mode: statements prepared on one server connection are missing on the next), which is
 *      why the services run with PONTE_DATABASE_PREPARED_STATEMENTS=false here;
 *   2. the race checks: concurrent on-ramps against one customer's daily limit must create exactly as
 *      many as fit, and concurrent retries of one Idempotency-Key must create exactly one transaction;
 *   3. the write path under load: on-ramp creations for `runSeconds`, every answer 201.
 * Exit status 1 when a check fails.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { formatAmount, parseAmount } from '../src/core/money.ts';
import { connectPostgres } from '../src/db/postgres.ts';
import { authorization, type BenchContext, databaseName, serviceEnv } from './context.ts';
import { median } from './load.ts';
import { approvedCustomers, drive } from './onramp.ts';
import { freePorts, startChild, startProgram, waitUntilReady } from './processes.ts';
import { startBenchPsp } from './psp.ts';
import { SEEDED_BR_CODE } from './seed.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

function ensureInstalled(): void {
  const missing = ['haproxy', 'pgbouncer'].filter(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool} || test -x /usr/sbin/${tool}`]).status !== 0,
  );
  if (missing.length === 0) return;
  log(`installing ${missing.join(', ')} from the distribution's packages`);
  const result = spawnSync('apt-get', ['install', '-y', ...missing], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed`);
}

const program = (name: string) =>
  spawnSync('sh', ['-c', `command -v ${name}`]).status === 0 ? name : `/usr/sbin/${name}`;

function version(name: string, args: string[]): string {
  const out = spawnSync(program(name), args, { encoding: 'utf8' });
  return `${out.stdout}${out.stderr}`.split('\n')[0]!.trim();
}

async function waitForPostgres(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Runs a parameterised statement many times over a few pooled connections with named statements. */
async function probeNamedStatements(url: string): Promise<{ tried: number; failed: number; error?: string }> {
  const db = connectPostgres(url, { max: 4, preparedStatements: true });
  let failed = 0;
  let error: string | undefined;
  const tried = 200;
  try {
    await Promise.all(
      Array.from({ length: tried }, async (_, i) => {
        try {
          await db.transaction(async (tx) => {
            await tx.query('SELECT $1::int AS n', [i]);
          });
        } catch (err) {
          failed++;
          error ??= (err as Error).message;
        }
      }),
    );
  } finally {
    await db.close();
  }
  return { tried, failed, ...(error ? { error } : {}) };
}

type Answer = { status: number; body: Record<string, unknown> };

async function post(
  origin: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<Answer> {
  const response = await fetch(origin + path, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const tally = (answers: Answer[]) =>
  answers.reduce<Record<number, number>>((acc, a) => {
    acc[a.status] = (acc[a.status] ?? 0) + 1;
    return acc;
  }, {});

async function countFor(url: string, customerId: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client.query(
      'SELECT count(*)::int AS n FROM transactions WHERE customer_id = $1 AND br_code IS DISTINCT FROM $2',
      [customerId, SEEDED_BR_CODE],
    );
    return rows.rows[0].n as number;
  } finally {
    await client.end();
  }
}

/** Concurrent on-ramps for one customer: exactly as many as its remaining daily/monthly limit holds. */
async function limitRace(origin: string, headers: Record<string, string>, customerId: string) {
  const read = await fetch(`${origin}/customers/${customerId}?includeTransactionLimits=true`, { headers });
  const limits = ((await read.json()) as { transactionLimits: Record<string, Record<string, string>> })
    .transactionLimits;
  const remaining = [limits.daily!.remaining!, limits.monthly!.remaining!]
    .map(parseAmount)
    .reduce((a, b) => (a < b ? a : b));
  const single = parseAmount(limits.single!.max!);
  const amount = remaining / 10n < single ? remaining / 10n : single;
  const requests = 20;
  const fits = Number(remaining / amount) < requests ? Number(remaining / amount) : requests;
  const answers = await Promise.all(
    Array.from({ length: requests }, () =>
      post(origin, '/transactions/on-ramp', headers, {
        customerId,
        currency: 'BRL',
        amount: formatAmount(amount),
      }),
    ),
  );
  const counts = tally(answers);
  const ok = (counts[201] ?? 0) === fits && (counts[422] ?? 0) === requests - fits;
  return {
    ok,
    line: `limits: ${requests} concurrent on-ramps of ${formatAmount(amount)} against ${formatAmount(remaining)} remaining: ${JSON.stringify(counts)} (expected ${fits} created)`,
  };
}

/** Concurrent retries of one Idempotency-Key, spread over both processes: one transaction, one id. */
async function idempotencyRace(
  origin: string,
  headers: Record<string, string>,
  customerId: string,
  databaseUrl: string,
) {
  const before = await countFor(databaseUrl, customerId);
  const key = randomUUID();
  const answers = await Promise.all(
    Array.from({ length: 20 }, () =>
      post(
        origin,
        '/transactions/on-ramp',
        { ...headers, 'idempotency-key': key },
        {
          customerId,
          currency: 'BRL',
          amount: '10.00',
        },
      ),
    ),
  );
  const created = await countFor(databaseUrl, customerId);
  const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id));
  const counts = tally(answers);
  const ok =
    created - before === 1 && ids.size === 1 && answers.every((a) => a.status === 201 || a.status === 409);
  return {
    ok,
    line: `idempotency: 20 concurrent retries of one key: ${JSON.stringify(counts)}, ${ids.size} distinct id(s), ${created - before} transaction(s) stored (expected 1)`,
  };
}

export async function measureCluster(ctx: BenchContext): Promise<number> {
  const { settings } = ctx;
  ensureInstalled();
  log(`\n${version('pgbouncer', ['--version'])}; ${version('haproxy', ['-v'])}`);
  const dir = mkdtempSync(join(tmpdir(), 'ponte-cluster-'));
  chmodSync(dir, 0o777); // PgBouncer drops root for the postgres user and writes its log here
  const [bouncerPort, balancerPort] = await freePorts(2);
  const upstream = new URL(ctx.databaseUrl);
  writeFileSync(join(dir, 'userlist.txt'), `"${upstream.username || 'postgres'}" ""\n`);
  writeFileSync(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${upstream.hostname} port=${upstream.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${bouncerPort}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 1000',
      `default_pool_size = ${settings.poolSize}`,
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  const bouncer = startProgram('pgbouncer', program('pgbouncer'), [
    ...(asRoot ? ['-u', 'postgres'] : []),
    join(dir, 'pgbouncer.ini'),
  ]);
  const pooledUrl = `postgres://${upstream.username || 'postgres'}@127.0.0.1:${bouncerPort}/${databaseName(ctx)}`;
  await waitForPostgres(pooledUrl);

  const probe = await probeNamedStatements(pooledUrl);
  log(
    `named prepared statements through the pooler (transaction mode): ${probe.failed} of ${probe.tried} ` +
      `transactions failed${probe.error ? ` (${probe.error})` : ''}; the services run with ` +
      'PONTE_DATABASE_PREPARED_STATEMENTS=false',
  );

  const customers = await approvedCustomers(ctx);
  const psp = await startBenchPsp();
  const services = await Promise.all([serviceEnv(ctx), serviceEnv(ctx)]);
  const children = services.map((service, i) =>
    startChild(`service ${i + 1}`, 'src/main.ts', {
      ...service.env,
      DATABASE_URL: pooledUrl,
      PONTE_DATABASE_PREPARED_STATEMENTS: 'false',
      ...psp.env,
    }),
  );
  // a loaded machine starts slowly
  await Promise.all(
    children.map((child, i) => waitUntilReady(child, `${services[i]!.origin}/readyz`, 180_000)),
  );
  writeFileSync(
    join(dir, 'haproxy.cfg'),
    [
      'global',
      '  maxconn 2000',
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 30s',
      '  timeout server 30s',
      'frontend ponte',
      `  bind 127.0.0.1:${balancerPort}`,
      '  default_backend services',
      'backend services',
      '  balance roundrobin',
      ...services.map((service, i) => `  server ponte${i + 1} ${new URL(service.origin).host}`),
      '',
    ].join('\n'),
  );
  const balancer = startProgram('haproxy', program('haproxy'), ['-db', '-f', join(dir, 'haproxy.cfg')]);
  const origin = `http://127.0.0.1:${balancerPort}`;
  await waitUntilReady(balancer, `${origin}/readyz`);
  log(
    `two services behind HAProxy at ${origin}, PgBouncer (transaction pooling) at 127.0.0.1:${bouncerPort}`,
  );

  const headers = authorization(ctx);
  const checks = [
    await limitRace(origin, headers, customers[0]!),
    await idempotencyRace(origin, headers, customers[1]!, ctx.databaseUrl),
  ];
  for (const check of checks) log(`  ${check.ok ? 'ok' : 'FAILED'}  ${check.line}`);

  await drive(origin, headers, customers.slice(2), settings.connections, settings.warmupSeconds);
  const runs = [];
  for (let i = 0; i < settings.runs; i++) {
    runs.push(await drive(origin, headers, customers.slice(2), settings.connections, settings.runSeconds));
  }
  const rps = median(runs.map((r) => r.rps));
  const other = runs.reduce((sum, r) => sum + r.other + r.errors, 0);
  log(
    `on-ramp creations through the balancer: ${rps.toFixed(0)} req/s (median of ${runs.length} run(s) of ` +
      `${settings.runSeconds} s), p50 ${median(runs.map((r) => r.p50))} ms, p99 ${median(runs.map((r) => r.p99))} ms, ` +
      `non-201 or errors: ${other}`,
  );
  const ended = [bouncer, balancer, ...children].filter((child) => child.exit());
  for (const child of ended) log(`FAILED: ${child.name} ${child.exit()}:\n${child.output()}`);
  if (checks.some((check) => !check.ok) || other > 0 || ended.length > 0) {
    log('\nCLUSTER CHECKS FAILED');
    return 1;
  }
  log(
    '\nThrough two processes, HAProxy and PgBouncer: limits and idempotency held exactly; every creation 201.',
  );
  return 0;
}
