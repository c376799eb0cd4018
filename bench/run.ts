/**
 * `npm run bench`: creates a fresh PostgreSQL database, migrates it with the service's migrations, seeds
 * it, then either measures the service's reads against two baselines (default) or compares the pg and
 * postgres.js drivers (`npm run bench -- drivers`). The database is dropped at the end, whatever happens.
 *
 * Exit codes: 0 all good; 1 a non-2xx answer, a socket error, a failed check or a route not served yet;
 * 2 a read by id below the throughput target.
 */
import { mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { measureBackup } from './backup.ts';
import { measureCluster } from './cluster.ts';
import { compareDrivers } from './compare-drivers.ts';
import { compareRoutes } from './compare-routes.ts';
import type { BenchContext } from './context.ts';
import { createBenchDatabase, prepareTenant } from './database.ts';
import { measureEmbedded } from './embedded.ts';
import { measureOffRamp } from './offramp.ts';
import { measureOnRamp } from './onramp.ts';
import { measureOnRampPsp } from './onramp-psp.ts';
import { stopAll } from './processes.ts';
import { loadWindows, mainThreadProfile, summariseProfile } from './profile.ts';
import { measureQuotes } from './quotes.ts';
import { drawSamples } from './samples.ts';
import { measureScreening } from './screening.ts';
import { seed } from './seed.ts';
import { readSettings } from './settings.ts';
import { measureUsdIn } from './usd-in.ts';
import { measureWebhooks } from './webhooks.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

/** Set on Ctrl-C or SIGTERM: the run in progress is abandoned, its failures are no news. */
let interrupted = false;

async function main(): Promise<number> {
  const started = Date.now();
  const settings = readSettings(process.argv.slice(2), process.env);
  const shape = {
    customers: settings.customers,
    accountsPerCustomer: settings.accountsPerCustomer,
    largeRequests: settings.largeRequests,
    smallRequests: settings.smallRequests,
  };
  log(
    `Ponte benchmark: ${settings.mode}${settings.quick ? ' (quick)' : ''}; node ${process.version}, ` +
      `${cpus().length} cores` +
      (settings.mode === 'embedded' || settings.mode === 'screening' || settings.mode === 'backup'
        ? ''
        : `; ${shape.customers * shape.accountsPerCustomer} bank accounts over ${shape.customers} customers`),
  );
  if (settings.profileDir) mkdirSync(settings.profileDir, { recursive: true });
  // the embedded default needs no PostgreSQL: it measures npm start on a PGlite data directory of its own
  if (settings.mode === 'embedded') {
    try {
      return await measureEmbedded(settings.quick);
    } finally {
      await stopAll();
    }
  }
  const database = await createBenchDatabase(settings.serverUrl);
  log(`database ${database.name} created on ${new URL(settings.serverUrl).host}`);

  const interrupt = () => {
    if (interrupted) return;
    interrupted = true;
    log('\ninterrupted: stopping servers and dropping the benchmark database');
    void stopAll()
      .then(() => (settings.keepDatabase ? undefined : database.drop()))
      .finally(() => process.exit(130));
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);

  try {
    const { tenant, apiKey } = await prepareTenant(database.url);
    if (settings.mode === 'screening') {
      return await measureScreening({ databaseUrl: database.url, tenant }, log);
    }
    if (settings.mode === 'backup') {
      return await measureBackup(
        { databaseUrl: database.url, serverUrl: settings.serverUrl, tenant, quick: settings.quick },
        log,
      );
    }
    const counts = await seed(database.url, tenant, shape);
    log(
      `seeded ${counts.customers} customers, ${counts.bankAccounts} bank accounts, ${counts.limitRequests} ` +
        `limit requests, ${counts.transactions} on-ramps in ${counts.seconds.toFixed(1)} s`,
    );
    const samples = await drawSamples(database.url, tenant, shape);
    const ctx: BenchContext = { settings, databaseUrl: database.url, tenant, apiKey, samples };
    if (settings.mode === 'drivers') return await compareDrivers(ctx);
    if (settings.mode === 'onramp') return await measureOnRamp(ctx);
    if (settings.mode === 'onramp-psp') return await measureOnRampPsp(ctx);
    if (settings.mode === 'usd-in') return await measureUsdIn(ctx);
    if (settings.mode === 'offramp') return await measureOffRamp(ctx);
    if (settings.mode === 'quotes') return await measureQuotes(ctx);
    if (settings.mode === 'cluster') return await measureCluster(ctx);
    if (settings.mode === 'webhooks') return await measureWebhooks(ctx);
    return await compareRoutes(ctx);
  } finally {
    await stopAll();
    const profile = settings.profileDir && mainThreadProfile(settings.profileDir, started);
    if (profile) log(`\n${summariseProfile(profile, loadWindows)}`);
    if (settings.keepDatabase) log(`database kept: ${database.url}`);
    else await database.drop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (interrupted) return;
    log(`\nBENCHMARK FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
