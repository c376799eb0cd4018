/**
 * The one shape every module is wired by: its descriptor names its routes on each surface, what it offers
 * other modules, and the background jobs it runs. `app.ts` registers the routes, `runtime.ts` composes the
 * offers into the context, `workers/index.ts` schedules the jobs; nothing is registered at import.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../core/logger.ts';
import type { Database } from '../db/types.ts';
import type { Environment } from '../lib/environment.ts';
import type { ChainRegistry } from '../rails/chains/registry.ts';
import type { ComposedOffers, ModuleOffers } from './offers.ts';

/** The two shapes of a module's routes: on a public listener (with its environment) or on the operator's. */
export type PublicPlugin = FastifyPluginAsyncTypebox<{ ctx: AppContext; environment: Environment }>;
export type OperatorPlugin = FastifyPluginAsyncTypebox<{ ctx: AppContext }>;

/** What a module's offers are built from: the process's services, and (called later) everyone's offers. */
export type OfferDeps = {
  db: Database;
  clock: Clock;
  config: Config;
  chains: ChainRegistry;
  log: Logger;
  /** The market references: a deposit trades at the rate priced from them (none: the operator's rates). */
  references: AppContext['references'];
};

/**
 * A background job: run every `everyMs` (backing off while idle and woken by work notifications when
 * `wakes`), or right away again while its tick reports work done (a count above 0). `open` builds its tick; `again` runs it at once
 * (a job that frees room for more work calls it), and `close` ends what the tick holds after the last one.
 */
export type Job = {
  name: string;
  everyMs: number;
  wakes: boolean;
  /** The least time between the end of a run and a run a wake-up asks for (default: `everyMs`). */
  wakeGapMs?: number;
  open(again: () => void): { tick(): Promise<number>; close?(): Promise<void> };
};

/** A job that is only its tick. */
export function job(name: string, everyMs: number, wakes: boolean, tick: () => Promise<number>): Job {
  return { name, everyMs, wakes, open: () => ({ tick }) };
}

export type ModuleDescriptor = {
  name: string;
  /** Named schemas shared through `$ref` and published as OpenAPI components. */
  schemas?: TSchema[];
  routes?: {
    /** Behind an API key of the listener's environment. */
    partner?: PublicPlugin[];
    /** On the public listeners, carrying their own authentication (or none): pages, provider callbacks. */
    open?: PublicPlugin[];
    /** On the operator listener, behind an operator token. */
    operator?: OperatorPlugin[];
  };
  /** What it offers other modules; `all()` answers everyone's offers once composed (call it in a handler). */
  offers?(deps: OfferDeps, all: () => ComposedOffers): ModuleOffers;
  /** The background jobs it runs in a process configured to run them. */
  jobs?(ctx: AppContext, log: Logger): Job[];
};
