/**
 * What one benchmark run does, read once from the command line and the environment.
 *
 *   npm run bench                      full run: 100,000 accounts, 3 runs of 10 s per target
 *   BENCH_QUICK=1 npm run bench        development: 10,000 accounts, 1 run of 3 s per target
 *   npm run bench -- drivers           pg against postgres.js, sustained (also BENCH_MODE=drivers)
 *   npm run bench -- onramp            the write path: on-ramp creations with the limit check
 *   npm run bench -- onramp-psp        production on-ramps through the PSP simulator against the sandbox; the sweep
 *   npm run bench -- offramp           money out: off-ramp creations with the reserve, against a minimal write
 *   npm run bench -- quotes            quotes from the market reference against quotes from the operator's rate
 *   npm run bench -- cluster           two processes behind HAProxy and PgBouncer: race checks, writes
 *   npm run bench -- embedded          npm start on PGlite: time to ready, resident memory, idle CPU
 *   npm run bench -- webhooks          events delivered per second against a bare POST baseline
 *   npm run bench -- screening         re-screening 100,000 customers against a 20,000-entry sanctions list
 */
import { resolve } from 'node:path';

export type Mode =
  | 'routes'
  | 'backup'
  | 'drivers'
  | 'onramp'
  | 'onramp-psp'
  | 'usd-in'
  | 'offramp'
  | 'quotes'
  | 'cluster'
  | 'embedded'
  | 'webhooks'
  | 'screening';

export type Settings = {
  mode: Mode;
  quick: boolean;
  /** Server to create the benchmark database on (its own database is only used to create and drop). */
  serverUrl: string;
  customers: number;
  accountsPerCustomer: number;
  /** Limit requests of the one large customer; every other approved customer has `smallRequests`. */
  largeRequests: number;
  smallRequests: number;
  connections: number;
  warmupSeconds: number;
  /** Unmeasured load on a target right before each of its runs (0: none). */
  rewarmSeconds: number;
  runSeconds: number;
  runs: number;
  /** Driver comparison: one sustained run per driver, reported per window. */
  driverSeconds: number;
  driverWindowSeconds: number;
  /** Minimum share of the minimal baseline's throughput every read by id must reach. */
  target: number;
  /** Minimum share of its page-query baseline's throughput every list must reach. */
  listTarget: number;
  /** Minimum share of the minimal write transaction's throughput an on-ramp creation must reach. */
  writeTarget: number;
  /** Events the webhook bench delivers, and the share of the bare POST baseline it must reach. */
  webhookEvents: number;
  webhookTarget: number;
  /** Connections each server's pool may open (the service's own default). */
  poolSize: number;
  keepDatabase: boolean;
  /** How baseline (b) runs its SELECT: `pg-prepared` (named, as the service) or `pg` (unnamed). */
  minimalDriver: 'pg' | 'pg-prepared';
  /** PONTE_LOG_LEVEL of the service under test. */
  logLevel: string;
  /** Only the service routes whose name contains this text (the baselines always run). */
  only: string | undefined;
  /** Directory to write a V8 CPU profile of the service (or the driver server) into, when set. */
  profileDir: string | undefined;
};

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) === 0) throw new Error(`${name} must be a positive whole number`);
  return Number(raw);
}

const flag = (env: NodeJS.ProcessEnv, name: string) => /^(1|true|yes)$/i.test(env[name]?.trim() ?? '');

export function readSettings(argv: string[], env: NodeJS.ProcessEnv): Settings {
  const modes: Mode[] = [
    'routes',
    'drivers',
    'onramp',
    'onramp-psp',
    'usd-in',
    'offramp',
    'quotes',
    'cluster',
    'embedded',
    'webhooks',
    'screening',
    'backup',
  ];
  const unknown = argv.filter((arg) => !modes.includes(arg as Mode));
  if (unknown.length > 0)
    throw new Error(`unknown argument(s): ${unknown.join(' ')} (expected one of ${modes.join(', ')})`);
  const mode: Mode =
    modes.find((m) => argv.includes(m)) ?? modes.find((m) => env.BENCH_MODE === m) ?? 'routes';
  const quick = flag(env, 'BENCH_QUICK');
  return {
    mode,
    quick,
    serverUrl: env.BENCH_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres',
    customers: whole(env, 'BENCH_CUSTOMERS', quick ? 100 : 1_000),
    accountsPerCustomer: whole(env, 'BENCH_ACCOUNTS_PER_CUSTOMER', 100),
    largeRequests: whole(env, 'BENCH_LARGE_REQUESTS', 10_000),
    smallRequests: 20,
    connections: whole(env, 'BENCH_CONNECTIONS', 50),
    warmupSeconds: whole(env, 'BENCH_WARMUP_SECONDS', quick ? 1 : 3),
    rewarmSeconds:
      env.BENCH_REWARM_SECONDS?.trim() === '0' ? 0 : whole(env, 'BENCH_REWARM_SECONDS', quick ? 0 : 1),
    runSeconds: whole(env, 'BENCH_SECONDS', quick ? 3 : 10),
    runs: whole(env, 'BENCH_RUNS', quick ? 1 : 3),
    driverSeconds: whole(env, 'BENCH_DRIVER_SECONDS', quick ? 20 : 60),
    driverWindowSeconds: whole(env, 'BENCH_DRIVER_WINDOW_SECONDS', quick ? 5 : 10),
    target: 0.9,
    listTarget: 0.7,
    writeTarget: 0.6,
    webhookEvents: whole(env, 'BENCH_WEBHOOK_EVENTS', quick ? 2_000 : 10_000),
    webhookTarget: 0.5,
    poolSize: 20,
    keepDatabase: flag(env, 'BENCH_KEEP_DATABASE'),
    logLevel: env.BENCH_LOG_LEVEL?.trim() || 'warn',
    minimalDriver: env.BENCH_MINIMAL_DRIVER?.trim() === 'pg' ? 'pg' : 'pg-prepared',
    only: env.BENCH_ONLY?.trim() || undefined,
    profileDir: env.BENCH_PROFILE?.trim() ? resolve(env.BENCH_PROFILE.trim()) : undefined,
  };
}
