/**
 * Opens what a process needs: the database (migrated), server keys, the API key cache, the rails, and
 * what the modules offer one another (composed from their descriptors, handed down in the context).
 */
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { type Clock, systemClock } from './core/clock.ts';
import { PAIRS } from './core/currencies.ts';
import { connectDatabase } from './db/connect.ts';
import { loadInstanceKeys } from './db/instance-secrets.ts';
import { migrate, printMigrationProgress } from './db/migrate.ts';
import type { Database } from './db/types.ts';
import { chainNodesProbe } from './http/chain-readiness.ts';
import { processLogger } from './http/logger.ts';
import { type PixScrape, pspObserver } from './http/pix-metrics.ts';
import type { ReferenceSample } from './http/rates-metrics.ts';
import type { UsdScrape } from './http/usd-metrics.ts';
import { composeOffers } from './modules/index.ts';
import { pendingSends } from './modules/off-ramp/payout-repo.ts';
import { sweepStates } from './modules/pix/sweep-repo.ts';
import { savePtax } from './modules/pricing/ptax-repo.ts';
import { ApiKeyCache } from './modules/projects/key-cache.ts';
import { createUsdRailOperationsService } from './modules/us-bank/operations.ts';
import { openChainRegistry } from './rails/chains/registry.ts';
import { openPixRails } from './rails/pix/registry.ts';
import { openReferences, pairReference } from './rails/rates/reference.ts';

/** `database`, when given, is used (and migrated) instead of connecting to the configured one. */
export async function openContext(
  config: Config,
  clock: Clock = systemClock,
  database?: Database,
): Promise<AppContext> {
  const db =
    database ??
    (await connectDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      preparedStatements: config.databasePreparedStatements,
      poolSize: config.databasePoolSize,
    }));
  try {
    await migrate(db, config.logLevel === 'silent' ? {} : { progress: printMigrationProgress() });
    const instanceKeys = await loadInstanceKeys(db, config.instanceSecret, clock());
    const chains = await openChainRegistry(db, config.chains, instanceKeys.encryption, clock());
    const log = processLogger(config.logLevel);
    const pix = openPixRails(config.pix, pspObserver, log);
    const references = openReferences(
      config.rates,
      (chain) => config.chains.networks[chain].rpcUrl,
      (bulletin) => savePtax(db, bulletin, clock()),
    );
    const offers = composeOffers({ db, clock, config, chains, log, references });
    pix.register(offers.pixIntake);
    return {
      config,
      db,
      clock,
      log,
      keys: new ApiKeyCache(db, config.apiKeyCacheTtlMs),
      instanceKeys,
      chains,
      pix,
      references,
      offers,
      chainNodes: chainNodesProbe(chains),
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** Where a scrape of `/metrics` reads the PIX rail's figures: webhook registrations, sweep lag, pending sends. */
export function pixScrape(ctx: AppContext): PixScrape {
  const { pix, config, clock } = ctx;
  return {
    webhooks: () =>
      (['production', 'sandbox'] as const).flatMap((environment) => {
        const registration = pix.webhookRegistration(environment);
        return registration ? [{ environment, registered: registration.registered }] : [];
      }),
    async rail(reader) {
      const [sweeps, pending] = await Promise.all([sweepStates(reader), pendingSends(reader)]);
      const now = clock().getTime();
      return (['production', 'sandbox'] as const)
        .filter((environment) => config.pix[environment])
        .map((environment) => {
          const sweep = sweeps.find((s) => s.environment === environment);
          const sends = pending.find((p) => p.environment === environment);
          return {
            environment,
            lagSeconds: sweep?.completed_at ? Math.max(0, (now - sweep.completed_at.getTime()) / 1000) : null,
            pendingSends: sends?.count ?? 0,
            oldestPendingSeconds: sends ? Math.max(0, (now - sends.oldest.getTime()) / 1000) : 0,
          };
        });
    },
  };
}

/** Where a scrape of `/metrics` reads the USD rail's figures: inbound transfers, sweep lag, pending returns. */
export function usdScrape(ctx: AppContext): UsdScrape {
  const operations = createUsdRailOperationsService(ctx);
  return () => operations.scrape(ctx.clock());
}

/** The market references' state for a scrape of `/metrics`: per environment and pair, read from the readings in hand. */
export function referenceSamples(ctx: AppContext): ReferenceSample[] {
  const { references, clock } = ctx;
  return (['production', 'sandbox'] as const).flatMap((environment) => {
    const reference = references[environment];
    if (!reference) return [];
    const { feeds, ptax } = reference.snapshot();
    const now = clock().getTime();
    return PAIRS.map((pair) => {
      const found = pairReference(pair, feeds, ptax);
      return {
        environment,
        pair,
        usable: found.usable,
        ageSeconds: found.at ? Math.max(0, (now - found.at.getTime()) / 1000) : null,
        deviationBps: found.usable && found.deviationBps !== null ? Number(found.deviationBps) : null,
      };
    });
  });
}
