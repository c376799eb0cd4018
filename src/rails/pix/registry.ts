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
import type { UnreadableSource } from './repo.ts';

/** What the owning modules do with what a PSP rail confirms (each call applies at most once). */
export type PixHandlers = {
  /** A PIX the PSP confirmed the account received (its refunds' states included). */
  received(environment: Environment, pix: ReceivedPix): Promise<void>;
  /** A send the PSP reports on (by its idEnvio). */
  sent(environment: Environment, state: SendState): Promise<void>;
  /** Whether an end-to-end id is one of Ponte's own sends, and its idEnvio. */
  sendIdOf(environment: Environment, endToEndId: string): Promise<string | null>;
  /** An item a PSP notified or answered that could not be read, kept for operations. */
  unreadable(
    environment: Environment,
    item: unknown,
    reason: string,
    source: UnreadableSource,
  ): Promise<void>;
};

/** Where the registration of an environment's webhook at its PSP stands. */
export type WebhookRegistration = {
  registered: boolean;
  /** Why the last attempt failed (the PSP's words, e.g. `webhook_invalido`), null once registered. */
  lastError: string | null;
  lastAttemptAt: Date | null;
  attempts: number;
};

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/** The identifying fields of something a PSP answered (no payer's name or document), for a log line. */
export function referenceOf(item: unknown): Record<string, string> {
  if (item === null || typeof item !== 'object') return {};
  const record = item as Record<string, unknown>;
  const reference: Record<string, string> = {};
  for (const key of ['endToEndId', 'txid', 'idEnvio', 'rtrId', 'id']) {
    if (typeof record[key] === 'string') reference[key] = (record[key] as string).slice(0, 80);
  }
  return reference;
}

export type PixRails = {
  /** The PSP rail of an environment, or null when it has none (production: 503; sandbox: simulated). */
  psp(environment: Environment): PixRail | null;
  config(environment: Environment): PspConfig | undefined;
  register(handlers: PixHandlers): void;
  handlers(): PixHandlers | null;
  /**
   * Work under way in the background (confirmations of notifications, charges withdrawn), so that it can
   * be awaited; a failure is logged with `about` (the transaction's id, say).
   */
  track(work: Promise<unknown>, about?: Record<string, string>): void;
  /** Where rail work that recovers from a failure (the sweep will apply it) says so. */
  log: Log;
  /** How much notification work is under way. */
  inFlight(): number;
  /** Resolves once no notification work is under way. */
  settled(): Promise<void>;
  /** The webhook registration of an environment with a PSP (null without one): every attempt, whoever made it. */
  webhookRegistration(environment: Environment): WebhookRegistration | null;
  close(): void;
};

/**
 * `log` takes what the rails report: each item a PSP answered that could not be read is logged with its
 * reference, counted (the observer), and kept for operators (the `unreadable` handler), never blocking
 * the rest.
 */
export function openPixRails(
  configs: { production: PspConfig | undefined; sandbox: PspConfig | undefined },
  observer: (environment: Environment) => PspObserver = () => ({}),
  log: Log = { info() {}, warn() {} },
): PixRails {
  let registered: PixHandlers | null = null;
  const work = new Set<Promise<unknown>>();
  const track = (promise: Promise<unknown>, about: Record<string, string> = {}) => {
    const tracked = promise
      .catch((error: Error) => log.warn({ reason: error.message, ...about }, 'PIX rail work failed'))
      .finally(() => work.delete(tracked));
    work.add(tracked);
  };
  const observe = (environment: Environment): PspObserver => {
    const base = observer(environment);
    return {
      ...base,
      unreadable(item, reason) {
        base.unreadable?.(item, reason);
        log.warn({ environment, ...referenceOf(item), reason }, 'PSP answer item could not be read');
        if (registered) track(registered.unreadable(environment, item, reason, 'psp-answer'));
      },
    };
  };
  const webhooks: Partial<Record<Environment, WebhookRegistration>> = {};
  /** The rail, its webhook registrations recorded however they are made (at start, a check, a test). */
  const open = (environment: Environment): (PixRail & { close(): void }) | null => {
    const config = configs[environment];
    if (!config) return null;
    const rail = createPspRail(config, observe(environment));
    const state: WebhookRegistration = {
      registered: false,
      lastError: null,
      lastAttemptAt: null,
      attempts: 0,
    };
    webhooks[environment] = state;
    const note = (error: string | null) => {
      state.attempts++;
      state.lastAttemptAt = new Date();
      state.lastError = error;
      // once registered, a later failed attempt (a re-registration) does not unregister what the PSP holds
      state.registered = state.registered || error === null;
    };
    return {
      ...rail,
      async registerWebhook() {
        try {
          await rail.registerWebhook();
        } catch (error) {
          note((error as Error).message);
          throw error;
        }
        note(null);
      },
    };
  };
  const rails = { production: open('production'), sandbox: open('sandbox') };
  return {
    track,
    log,
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
    webhookRegistration: (environment) => webhooks[environment] ?? null,
    close() {
      rails.production?.close();
      rails.sandbox?.close();
    },
  };
}

/**
 * Registers each PSP's webhook for the account's key (`PUT /webhook/{chave}`, idempotent), trying again
 * with back-off until the PSP takes it or `stop` is called; meanwhile the reconciliation sweep alone
 * brings payments in, and payouts wait (Efí refuses a send from a key without a webhook). Efí checks the
 * address before it stores it (two requests to the address itself, the first without a client
 * certificate: dev.efipay.com.br/docs/api-pix/webhooks) and answers `400 webhook_invalido` when the
 * check fails; every failed attempt is logged, counted and shown (`webhookRegistration`).
 */
export function registerWebhooks(rails: PixRails, log: Log): { stop(): void } {
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
          log.warn(
            { environment, reason: err.message, retryInMs: delayMs },
            'PIX webhook not registered at the PSP; payouts wait for it; trying again',
          );
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
