/**
 * The PIX rails of a process: for each environment, the PSP adapter when one is configured. What a rail
 * learns (a payment received, a refund's or a send's result) goes to the handlers the owning modules
 * register at wiring time; until they are registered, nothing is applied.
 */
import type { Environment } from '../../lib/environment.ts';
import type { PspConfig } from './psp/config.ts';
import type { PspObserver } from './psp/http-client.ts';
import { createPspRail } from './psp/rail.ts';
import type { PixRail, ReceivedPix, SendState } from './rail.ts';

/** What the owning modules do with what a PSP rail confirms (each call applies at most once). */
export type PixHandlers = {
  /** A PIX the PSP confirmed the account received (its refunds' states included). */
  received(environment: Environment, pix: ReceivedPix): Promise<void>;
  /** A send the PSP reports on (by its idEnvio). */
  sent(environment: Environment, state: SendState): Promise<void>;
  /** Whether an end-to-end id is one of Ponte's own sends, and its idEnvio. */
  sendIdOf(environment: Environment, endToEndId: string): Promise<string | null>;
  /** A notification item that could not be read, kept for operations. */
  unreadable(environment: Environment, item: unknown, reason: string): Promise<void>;
};

export type PixRails = {
  /** The PSP rail of an environment, or null when it has none (production: 503; sandbox: simulated). */
  psp(environment: Environment): PixRail | null;
  config(environment: Environment): PspConfig | undefined;
  register(handlers: PixHandlers): void;
  handlers(): PixHandlers | null;
  /** Work started by notifications (confirmations under way), so that it can be awaited. */
  track(work: Promise<unknown>): void;
  /** How much notification work is under way. */
  inFlight(): number;
  /** Resolves once no notification work is under way. */
  settled(): Promise<void>;
  close(): void;
};

export function openPixRails(
  configs: { production: PspConfig | undefined; sandbox: PspConfig | undefined },
  observer: (environment: Environment) => PspObserver = () => ({}),
): PixRails {
  const rails = {
    production: configs.production ? createPspRail(configs.production, observer('production')) : null,
    sandbox: configs.sandbox ? createPspRail(configs.sandbox, observer('sandbox')) : null,
  };
  let registered: PixHandlers | null = null;
  const work = new Set<Promise<unknown>>();
  return {
    track(promise) {
      const tracked = promise.catch(() => {}).finally(() => work.delete(tracked));
      work.add(tracked);
    },
    inFlight: () => work.size,
    async settled() {
      while (work.size > 0) await Promise.allSettled([...work]);
    },
    psp: (environment) => rails[environment],
    config: (environment) => configs[environment],
    register(handlers) {
      registered = handlers;
    },
    handlers: () => registered,
    close() {
      rails.production?.close();
      rails.sandbox?.close();
    },
  };
}

/**
 * Registers each PSP's webhook for the account's key (`PUT /webhook/{chave}`, idempotent), trying again
 * with back-off until the PSP takes it or `stop` is called; meanwhile the reconciliation sweep alone
 * brings payments in.
 */
export function registerWebhooks(
  rails: PixRails,
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void },
): { stop(): void } {
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  for (const environment of ['production', 'sandbox'] as const) {
    const rail = rails.psp(environment);
    if (!rail) continue;
    const attempt = (delayMs: number) => {
      if (stopped) return;
      rail.registerWebhook().then(
        () => log.info({ environment }, 'PIX webhook registered at the PSP'),
        (err: Error) => {
          log.warn({ environment, reason: err.message }, 'PIX webhook not registered yet; trying again');
          const timer = setTimeout(() => {
            timers.delete(timer);
            attempt(Math.min(delayMs * 2, 300_000));
          }, delayMs);
          timer.unref();
          timers.add(timer);
        },
      );
    };
    attempt(1_000);
  }
  return {
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
    },
  };
}
