/**
 * The PIX rail in `/metrics`: calls to the PSP by environment, route and outcome (and their duration),
 * token refreshes, items the PSP answered that could not be read, whether the webhook is registered at
 * the PSP, how long ago the last complete reconciliation sweep ended, and sends not yet settled.
 */
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Executor } from '../db/types.ts';
import type { Environment } from '../lib/environment.ts';
import { metrics } from './metrics.ts';

const pspCalls = new Counter({
  name: 'ponte_pix_psp_calls_total',
  help: 'Calls to the PSP, by environment, route and outcome (2xx, 4xx, 5xx, timeout, error)',
  labelNames: ['environment', 'route', 'outcome'] as const,
  registers: [metrics.registry],
});
const pspDuration = new Histogram({
  name: 'ponte_pix_psp_call_duration_seconds',
  help: 'Duration of calls to the PSP, by environment and route',
  labelNames: ['environment', 'route'] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metrics.registry],
});
const tokenRefreshes = new Counter({
  name: 'ponte_pix_psp_token_refreshes_total',
  help: 'OAuth2 tokens fetched from the PSP, by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
});

const unreadableItems = new Counter({
  name: 'ponte_pix_unreadable_items_total',
  help: 'Items a PSP answered or notified that could not be read (kept for operators), by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
});

let webhookState: (() => { environment: string; registered: boolean }[]) | null = null;

/** Where the webhook registration of each environment with a PSP is read when `/metrics` is scraped. */
export function watchPixWebhooks(read: NonNullable<typeof webhookState>): void {
  webhookState = read;
}

new Gauge({
  name: 'ponte_pix_webhook_registered',
  help: 'Whether the PSP accepted the webhook of the PIX key (1) or not yet (0), by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
  collect() {
    if (!webhookState) return;
    this.reset();
    for (const row of webhookState()) this.set({ environment: row.environment }, row.registered ? 1 : 0);
  },
});

/** What the PSP rail reports of its calls, counted here (the rail takes any object of this shape). */
export type PspCallCounters = {
  unreadable(): void;
  call(route: string, outcome: string, seconds: number): void;
  tokenRefreshed(): void;
};

export function pspObserver(environment: Environment): PspCallCounters {
  return {
    unreadable() {
      unreadableItems.inc({ environment });
    },
    call(route, outcome, seconds) {
      pspCalls.inc({ environment, route, outcome });
      pspDuration.observe({ environment, route }, seconds);
    },
    tokenRefreshed() {
      tokenRefreshes.inc({ environment });
    },
  };
}

let railState:
  | ((
      db: Executor,
    ) => Promise<
      { environment: string; lagSeconds: number | null; pendingSends: number; oldestPendingSeconds: number }[]
    >)
  | null = null;
let stateDb: Executor | null = null;

/** Where the sweep lag and the pending sends are read when `/metrics` is scraped. */
export function watchPixRail(db: Executor, read: NonNullable<typeof railState>): void {
  stateDb = db;
  railState = read;
}

async function collectRailState(
  this: Gauge<'environment'>,
  which: 'lag' | 'pending' | 'oldest',
): Promise<void> {
  if (!railState || !stateDb) return;
  this.reset();
  // a database that does not answer leaves these gauges out; every other figure is still served
  const rows = await railState(stateDb).catch(() => []);
  for (const row of rows) {
    if (which === 'lag' && row.lagSeconds !== null)
      this.set({ environment: row.environment }, row.lagSeconds);
    if (which === 'pending') this.set({ environment: row.environment }, row.pendingSends);
    if (which === 'oldest') this.set({ environment: row.environment }, row.oldestPendingSeconds);
  }
}

new Gauge({
  name: 'ponte_pix_sweep_lag_seconds',
  help: 'Seconds since the last complete PIX reconciliation sweep ended, by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
  async collect() {
    await collectRailState.call(this, 'lag');
  },
});
new Gauge({
  name: 'ponte_pix_pending_sends',
  help: 'PIX sends (payouts and refunds) not yet settled by the PSP, by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
  async collect() {
    await collectRailState.call(this, 'pending');
  },
});
new Gauge({
  name: 'ponte_pix_oldest_pending_send_age_seconds',
  help: 'Seconds the oldest PIX send not yet settled by the PSP has waited (0 when none), by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
  async collect() {
    await collectRailState.call(this, 'oldest');
  },
});
