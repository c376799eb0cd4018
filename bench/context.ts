/** What both benchmark modes share: the settings, the seeded database, its tenant and the sampled ids. */
import { randomBytes } from 'node:crypto';
import type { Tenant } from '../src/lib/environment.ts';
import { freePorts } from './processes.ts';
import type { Samples } from './samples.ts';
import type { Settings } from './settings.ts';

export type BenchContext = {
  settings: Settings;
  databaseUrl: string;
  tenant: Tenant;
  apiKey: string;
  samples: Samples;
};

export const authorization = (ctx: BenchContext) => ({ authorization: `Bearer ${ctx.apiKey}` });

/** The bench database's name (PostgreSQL backends carry it in their process title). */
export const databaseName = (ctx: BenchContext) => new URL(ctx.databaseUrl).pathname.slice(1);

/** Environment of the minimal server (baseline b and the driver comparison). */
export async function minimalServerEnv(ctx: BenchContext, drivers: string[]) {
  const [port] = await freePorts(1);
  return {
    origin: `http://127.0.0.1:${port}`,
    env: {
      BENCH_PORT: String(port),
      DATABASE_URL: ctx.databaseUrl,
      BENCH_POOL_SIZE: String(ctx.settings.poolSize),
      BENCH_DRIVERS: drivers.join(','),
      BENCH_API_KEY: ctx.apiKey,
      BENCH_PROJECT_ID: ctx.tenant.projectId,
      BENCH_ENVIRONMENT: ctx.tenant.environment,
    },
  };
}

/** Environment of the service process: the bench database and free loopback ports for every listener. */
export async function serviceEnv(ctx: BenchContext) {
  const [production, sandbox, operator, dashboard] = await freePorts(4);
  return {
    origin: `http://127.0.0.1:${production}`,
    env: {
      DATABASE_URL: ctx.databaseUrl,
      PONTE_LOG_LEVEL: ctx.settings.logLevel,
      PONTE_PRODUCTION_URL: `http://127.0.0.1:${production}`,
      PONTE_SANDBOX_URL: `http://127.0.0.1:${sandbox}`,
      PONTE_OPERATOR_URL: `http://127.0.0.1:${operator}`,
      PONTE_DASHBOARD_URL: `http://127.0.0.1:${dashboard}`,
      PONTE_OPERATOR_TOKEN: `bench-${randomBytes(24).toString('hex')}`,
      // The per-key limit is still checked on every request (in process memory, as with one process
      // and no Redis), but set so high that it never refuses the load.
      PONTE_RATE_LIMIT_PER_SECOND: '1000000000',
      PONTE_RATE_LIMIT_BURST: '1000000000',
      REDIS_URL: '',
    },
  };
}
