/**
 * The market reference in `/metrics`: per environment and pair, how old the reference is, how far it stands
 * from PTAX, and whether quotes can be given from it. Read from the readings in hand when scraped: a scrape
 * never asks the node.
 */
import { Gauge } from 'prom-client';
import { metrics } from './metrics.ts';

export type ReferenceSample = {
  environment: string;
  pair: string;
  usable: boolean;
  ageSeconds: number | null;
  deviationBps: number | null;
};

const gauge = (name: string, help: string) =>
  new Gauge({ name, help, labelNames: ['environment', 'pair'] as const, registers: [metrics.registry] });

const age = gauge('ponte_rates_reference_age_seconds', 'How old the market reference of a pair is');
const deviation = gauge(
  'ponte_rates_reference_deviation_bps',
  "How far a pair's market reference stands from the PTAX-implied rate, in basis points",
);
const usable = gauge(
  'ponte_rates_reference_usable',
  'Whether quotes of a pair can be given from the reference (1) or not (0)',
);

/** Sets the reference gauges for a scrape from the references' state. */
export function readReferenceGauges(samples: ReferenceSample[]): void {
  for (const g of [age, deviation, usable]) g.reset();
  for (const sample of samples) {
    const labels = { environment: sample.environment, pair: sample.pair };
    if (sample.ageSeconds !== null) age.set(labels, sample.ageSeconds);
    if (sample.deviationBps !== null) deviation.set(labels, sample.deviationBps);
    usable.set(labels, sample.usable ? 1 : 0);
  }
}
