/**
 * The console rates page's chart as drawn from a pair's history: the market references recorded on
 * quotes (Chainlink, PTAX) each as a series of their own beside the quotes, the operator's own reference
 * not drawn twice (the rate set is its step line), and every series named in the legend.
 */
import { describe, expect, it } from 'vitest';
import type { RateHistory } from '../../src/modules/pricing/service.ts';
import { view } from '../../src/web/pages/console/rates.ts';

const to = new Date('2026-11-29T12:00:00.000Z');
const from = new Date('2026-11-28T12:00:00.000Z');
const at = (hour: number) => new Date(Date.UTC(2026, 10, 28, 12 + hour));

const history: RateHistory = {
  from,
  to,
  truncated: false,
  pairs: [
    {
      pair: 'BRL/USDC',
      rates: [{ rate: 1_800_000_000n, at: from, setBy: 'operator:1' }],
      quotes: [
        {
          id: 'q1',
          environment: 'production',
          rate: 1_790_000_000n,
          at: at(2),
          reference: { source: 'CHAINLINK', rate: 1_799_000_000n, at: at(1) },
        },
        {
          id: 'q2',
          environment: 'production',
          rate: 1_791_000_000n,
          at: at(6),
          reference: { source: 'CHAINLINK', rate: 1_800_000_000n, at: at(5) },
        },
        {
          id: 'q3',
          environment: 'production',
          rate: 1_792_000_000n,
          at: at(9),
          reference: { source: 'PTAX', rate: 1_801_000_000n, at: at(8) },
        },
        {
          id: 'q4',
          environment: 'sandbox',
          rate: 1_800_000_000n,
          at: at(10),
          reference: { source: 'OPERATOR', rate: 1_800_000_000n, at: from },
        },
      ],
    },
  ],
};

const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;
const group = (text: string, tone: string) =>
  new RegExp(`<g class="series-${tone}"[^>]*>(.*?)</g>`, 's').exec(text)?.[1] ?? '';

describe('console rates chart', () => {
  it('draws the Chainlink and PTAX references recorded on quotes, each point at its quote', () => {
    const page = view('csrf', undefined, { current: { data: [] }, history }).safe;
    expect(count(group(page, 'quote'), /<circle /g)).toBe(4);
    expect(count(group(page, 'chainlink'), /<rect /g)).toBe(2);
    expect(count(group(page, 'ptax'), /<rect /g)).toBe(1);
    expect(page).not.toContain('series-operator');
    // a reference point shares its quote's x: q3 at 21:00 and its PTAX reference
    const quoteXs = [...group(page, 'quote').matchAll(/cx="([\d.]+)"/g)].map((m) => m[1]);
    const ptaxX = /x="([\d.]+)"/.exec(group(page, 'ptax'))?.[1];
    expect(ptaxX).toBe(quoteXs[2]);
    // 9 of 24 hours across 96..704: 96 + 608 × 9/24 = 324
    expect(ptaxX).toBe('324');
    for (const name of ['Rate set', 'Quotes', 'Chainlink reference', 'PTAX reference']) {
      expect(page).toMatch(new RegExp(`<li><svg[^>]*>.*?</svg>${name}</li>`));
    }
    // the description counts the quotes priced from a market reference, not the operator's
    expect(page).toContain('4 quotes given, 3 priced from a Chainlink or PTAX reference.');
  });
});
