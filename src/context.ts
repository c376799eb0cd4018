/** What every module's routes and services may depend on; built once per process in main.ts. */
import type { Config } from './config.ts';
import type { Clock } from './core/clock.ts';
import type { Logger } from './core/logger.ts';
import type { Database } from './db/types.ts';
import type { ApiKeyLookup } from './http/auth.ts';
import type { ChainNodesProbe } from './http/chain-readiness.ts';
import type { Environment } from './lib/environment.ts';
import type { InstanceKeys } from './lib/instance-keys.ts';
import type { ComposedOffers } from './modules/offers.ts';
import type { ChainRegistry } from './rails/chains/registry.ts';
import type { PixRails } from './rails/pix/registry.ts';
import type { ReferenceRates } from './rails/rates/reference.ts';

export type AppContext = {
  config: Config;
  db: Database;
  clock: Clock;
  /** Where work that recovers from a failure (a request's own settlement left to the workers) says so. */
  log: Logger;
  /** The API key cache (projects/key-cache.ts): authentication reads through it; a revoked key leaves it at once. */
  keys: ApiKeyLookup & { invalidate(hash: string): void };
  instanceKeys: InstanceKeys;
  chains: ChainRegistry;
  /** The PSP rails of each environment, and the handlers their results go to. */
  pix: PixRails;
  /** The market reference each environment quotes from; null where its rates are the operator's. */
  references: Record<Environment, ReferenceRates | null>;
  /** What the modules offer one another, composed from their descriptors (modules/index.ts). */
  offers: ComposedOffers;
  /** Whether production's chain nodes answer, as `/readyz` says (one probe per process, its answer kept briefly). */
  chainNodes: ChainNodesProbe;
};
