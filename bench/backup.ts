/**
 * `npm run bench -- backup`: `npm run backup` and `npm run restore` on a large database, each way.
 * Seeds the bench database (PostgreSQL) with `seed.ts`: BENCH_BACKUP_CUSTOMERS customers (default
 * 100,000, 2,000 with BENCH_QUICK=1; in projects of 10,000), a bank account each, and eleven limit
 * requests and eleven on-ramps per approved customer (nine in ten are; the first of each project has
 * 1,020): 1,000,090 transactions for 100,000 customers. Then it measures, each command run as an operator runs it (its own
 * process):
 *   1. backup of PostgreSQL in its default format, a pg_dump custom-format archive; 2. restore of that
 *   archive into an empty PostgreSQL database (pg_restore, one transaction, then the migrations);
 *   3. backup of PostgreSQL in the portable format (`--portable`); 4. restore of that copy into an empty
 *   PostgreSQL database; 5. restore of the same copy into an empty embedded data directory;
 *   6. backup of the embedded database (Ponte stopped: the command opens the directory).
 * It prints the time and the file size of each, and the command's peak resident memory (GNU time counts
 * the largest process of the command: node, or pg_dump / pg_restore for the archive).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tenant } from '../src/lib/environment.ts';
import { createBenchDatabase, prepareTenant } from './database.ts';
import { seed } from './seed.ts';

type Log = (line: string) => void;

const PER_PROJECT = 10_000;
/** Per approved customer, and for each project's first: 100,000 customers then carry 1,000,090 on-ramps. */
const RAMPS_PER_CUSTOMER = 11;
const LARGE_CUSTOMER_RAMPS = 1_020;

function timed(script: 'backup' | 'restore', args: string[], env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const base: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete base.DATABASE_URL;
  // GNU time's %M: the process's peak resident set, in KB
  const child = spawn(
    '/usr/bin/time',
    ['-f', 'peak-rss-kb %M', 'npx', 'tsx', `scripts/${script}.ts`, ...args],
    {
      env: base,
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise<{ seconds: number; peakMb: number }>((resolve, reject) =>
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${script} failed (${code}):\n${output}`));
      const kb = Number(/peak-rss-kb (\d+)/.exec(output)?.[1] ?? 0);
      resolve({ seconds: (performance.now() - started) / 1000, peakMb: kb / 1024 });
    }),
  );
}

export async function measureBackup(
  context: { databaseUrl: string; serverUrl: string; tenant: Tenant; quick: boolean },
  log: Log,
): Promise<number> {
  const customers = Number(process.env.BENCH_BACKUP_CUSTOMERS ?? (context.quick ? 2_000 : 100_000));
  // the seed's tax ids run out past about 11,000 customers in one project: 10,000 per project
  const total = { customers: 0, bankAccounts: 0, transactions: 0, limitRequests: 0, seconds: 0 };
  for (let seeded = 0; seeded < customers; seeded += PER_PROJECT) {
    const tenant = seeded === 0 ? context.tenant : (await prepareTenant(context.databaseUrl)).tenant;
    const counts = await seed(context.databaseUrl, tenant, {
      customers: Math.min(PER_PROJECT, customers - seeded),
      accountsPerCustomer: 1,
      largeRequests: LARGE_CUSTOMER_RAMPS,
      smallRequests: RAMPS_PER_CUSTOMER,
    });
    // the counts are of the whole database so far; the time is this project's
    Object.assign(total, { ...counts, seconds: total.seconds + counts.seconds });
  }
  log(
    `seeded ${total.customers} customers, ${total.bankAccounts} bank accounts, ${total.transactions} ` +
      `transactions, ${total.limitRequests} limit requests in ${total.seconds.toFixed(1)} s`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'ponte-bench-backup-'));
  const archiveTarget = await createBenchDatabase(context.serverUrl);
  const target = await createBenchDatabase(context.serverUrl);
  const mb = (file: string) => (statSync(file).size / 2 ** 20).toFixed(1);
  const row = (what: string, r: { seconds: number; peakMb: number }, size: string) =>
    log(
      `${what.padEnd(44)} ${r.seconds.toFixed(1).padStart(7)} s  ${size.padStart(8)} MB  peak ${r.peakMb.toFixed(0)} MB`,
    );
  try {
    const archive = join(dir, 'postgres.dump');
    row(
      'backup, PostgreSQL (pg_dump custom format)',
      await timed('backup', [archive], { DATABASE_URL: context.databaseUrl }),
      mb(archive),
    );
    row(
      'restore archive into PostgreSQL (pg_restore)',
      await timed('restore', [archive], { DATABASE_URL: archiveTarget.url }),
      mb(archive),
    );
    const copy = join(dir, 'postgres.ponte');
    row(
      'backup, PostgreSQL (--portable)',
      await timed('backup', ['--portable', copy], { DATABASE_URL: context.databaseUrl }),
      mb(copy),
    );
    row(
      'restore portable into PostgreSQL',
      await timed('restore', [copy], { DATABASE_URL: target.url }),
      mb(copy),
    );
    const dataDir = join(dir, 'embedded');
    row(
      'restore portable into embedded',
      await timed('restore', [copy], { PONTE_DATA_DIR: dataDir }),
      mb(copy),
    );
    const embedded = join(dir, 'embedded.ponte');
    row(
      'backup, embedded (Ponte stopped)',
      await timed('backup', [embedded], { PONTE_DATA_DIR: dataDir }),
      mb(embedded),
    );
    return 0;
  } finally {
    await archiveTarget.drop();
    await target.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
