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

const webhookRegistered = new Gauge({
  name: 'ponte_pix_webhook_registered',
  help: 'Whether the PSP accepted the webhook of the PIX key (1) or not yet (0), by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
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

const sweepLag = new Gauge({
  name: 'ponte_pix_sweep_lag_seconds',
  help: 'Seconds since the last complete PIX reconciliation sweep ended, by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
});
const pendingSends = new Gauge({
  name: 'ponte_pix_pending_sends',
  help: 'PIX sends (payouts and refunds) not yet settled by the PSP, by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
});
const oldestPendingSend = new Gauge({
  name: 'ponte_pix_oldest_pending_send_age_seconds',
  help: 'Seconds the oldest PIX send not yet settled by the PSP has waited (0 when none), by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
});

/** Where the PIX figures of a scrape are read: the webhook registrations, and the rail's state. */
export type PixScrape = {
  webhooks(): { environment: string; registered: boolean }[];
  rail(
    db: Executor,
  ): Promise<
    { environment: string; lagSeconds: number | null; pendingSends: number; oldestPendingSeconds: number }[]
  >;
};

/** Sets the PIX gauges for a scrape; a database that does not answer leaves the rail's gauges out. */
export async function readPixGauges(db: Executor, scrape: PixScrape): Promise<void> {
  webhookRegistered.reset();
  for (const row of scrape.webhooks()) {
    webhookRegistered.set({ environment: row.environment }, row.registered ? 1 : 0);
  }
  const rows = await scrape.rail(db).catch(() => []);
  for (const gauge of [sweepLag, pendingSends, oldestPendingSend]) gauge.reset();
  for (const row of rows) {
    const environment = { environment: row.environment };
    if (row.lagSeconds !== null) sweepLag.set(environment, row.lagSeconds);
    pendingSends.set(environment, row.pendingSends);
    oldestPendingSend.set(environment, row.oldestPendingSeconds);
  }
}
