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

let read: (() => ReferenceSample[]) | null = null;

/** Where the references' state is read when `/metrics` is scraped. */
export function watchReferences(reader: () => ReferenceSample[]): void {
  read = reader;
}

const gauge = (name: string, help: string, value: (sample: ReferenceSample) => number | null) =>
  new Gauge({
    name,
    help,
    labelNames: ['environment', 'pair'] as const,
    registers: [metrics.registry],
    collect() {
      if (!read) return;
      this.reset();
      for (const sample of read()) {
        const v = value(sample);
        if (v !== null) this.set({ environment: sample.environment, pair: sample.pair }, v);
      }
    },
  });

gauge('ponte_rates_reference_age_seconds', 'How old the market reference of a pair is', (s) => s.ageSeconds);
gauge(
  'ponte_rates_reference_deviation_bps',
  "How far a pair's market reference stands from the PTAX-implied rate, in basis points",
  (s) => s.deviationBps,
);
gauge(
  'ponte_rates_reference_usable',
  'Whether quotes of a pair can be given from the reference (1) or not (0)',
  (s) => (s.usable ? 1 : 0),
);
