/**
 * The USD rail in `/metrics`, read from the database when scraped: inbound transfers by environment, rail
 * (ACH, WIRE) and outcome (APPLIED, HELD, RETURNED), how long ago the last complete sweep of inbound
 * transfers ended, the transfers returned whose return the bank has not accepted yet (with the age of the
 * oldest), and the payouts by rail and status with the age of the oldest still waiting for the bank.
 */
import { Gauge } from 'prom-client';
import { metrics } from './metrics.ts';

const inbound = new Gauge({
  name: 'ponte_usd_inbound_transfers',
  help: 'Inbound US bank transfers recorded, by environment, rail (ACH, WIRE) and outcome (APPLIED, HELD, RETURNED)',
  labelNames: ['environment', 'rail', 'outcome'] as const,
  registers: [metrics.registry],
});
const sweepLag = new Gauge({
  name: 'ponte_usd_sweep_lag_seconds',
  help: 'Seconds since the last complete sweep of inbound US bank transfers ended, by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
});
const pendingReturns = new Gauge({
  name: 'ponte_usd_pending_returns',
  help: 'Inbound US bank transfers returned whose return the bank has not accepted yet, by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
});
const oldestPendingReturn = new Gauge({
  name: 'ponte_usd_oldest_pending_return_age_seconds',
  help: 'Seconds since the oldest transfer returned but not yet accepted by the bank was received (0 when none), by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
});

const payouts = new Gauge({
  name: 'ponte_usd_payouts',
  help: 'USD payouts (off-ramps paid over ACH or wire), by environment, rail (ACH, WIRE) and status (PENDING, SUBMITTED, COMPLETED, REJECTED, RETURNED)',
  labelNames: ['environment', 'rail', 'status'] as const,
  registers: [metrics.registry],
});
const oldestOpenPayout = new Gauge({
  name: 'ponte_usd_oldest_open_payout_age_seconds',
  help: 'Seconds since the oldest USD payout still waiting for the bank (PENDING or SUBMITTED) was made (0 when none), by environment',
  labelNames: ['environment'] as const,
  registers: [metrics.registry],
});

/** What a scrape reads of the USD rail, per environment. */
export type UsdScrape = () => Promise<
  {
    environment: string;
    lagSeconds: number | null;
    pendingReturns: number;
    oldestPendingReturnSeconds: number;
    inbound: { rail: string; outcome: string; count: number }[];
    payouts: { rail: string; status: string; count: number }[];
    oldestOpenPayoutSeconds: number;
  }[]
>;

/** Sets the USD rail's gauges for a scrape; a database that does not answer leaves them out. */
export async function readUsdGauges(scrape: UsdScrape): Promise<void> {
  const rows = await scrape().catch(() => []);
  for (const gauge of [inbound, sweepLag, pendingReturns, oldestPendingReturn, payouts, oldestOpenPayout]) {
    gauge.reset();
  }
  for (const row of rows) {
    const environment = { environment: row.environment };
    if (row.lagSeconds !== null) sweepLag.set(environment, row.lagSeconds);
    pendingReturns.set(environment, row.pendingReturns);
    oldestPendingReturn.set(environment, row.oldestPendingReturnSeconds);
    for (const count of row.inbound) {
      inbound.set({ environment: row.environment, rail: count.rail, outcome: count.outcome }, count.count);
    }
    oldestOpenPayout.set(environment, row.oldestOpenPayoutSeconds);
    for (const count of row.payouts) {
      payouts.set({ environment: row.environment, rail: count.rail, status: count.status }, count.count);
    }
  }
}
