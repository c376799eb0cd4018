/**
 * `timestamptz` values are read by position where they have the usual shape: every instant must come out
 * as the driver's own parser (postgres-date) reads it, whatever its offset, fraction or year.
 */
import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from '../../src/db/timestamps.ts';

const driver: (text: string) => Date = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ);
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An instant written as PostgreSQL writes a timestamptz in a session at `offset` minutes from UTC. */
function written(instant: Date, offset: number, fraction: string, longOffset: boolean): string {
  const local = new Date(instant.getTime() + offset * 60_000);
  const date = `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const zone = `${sign}${pad(Math.floor(abs / 60))}${longOffset || abs % 60 !== 0 ? `:${pad(abs % 60)}` : ''}`;
  return `${date} ${time}${fraction ? `.${fraction}` : ''}${zone}`;
}

describe('timestamptz values', () => {
  it('are read as the driver reads them, whatever the offset, fraction and year', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0100-01-02T00:00:00Z'),
          max: new Date('9999-12-30T00:00:00Z'),
          noInvalidDate: true,
        }),
        // UTC (the sessions' usual zone) half of the time
        fc.oneof(fc.constant(0), fc.integer({ min: -15 * 60, max: 15 * 60 })),
        fc.stringMatching(/^\d{0,6}$/),
        fc.boolean(),
        (instant, offset, fraction, longOffset) => {
          const text = written(instant, offset, fraction, longOffset);
          const read = parseTimestamptz(text);
          expect(read.getTime()).toBe(driver(text).getTime());
          // its ISO text is the one any date of that instant gives, also once changed in place
          expect(read.toISOString()).toBe(new Date(read.getTime()).toISOString());
          expect(JSON.stringify({ read })).toBe(JSON.stringify({ read: new Date(read.getTime()) }));
          read.setTime(read.getTime() + 1);
          expect(read.toISOString()).toBe(new Date(read.getTime()).toISOString());
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('hand the shapes it does not read by position to the driver', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '0099-01-01 00:00:00+00',
      '2026-11-24 10:11:12+05:30:15',
      '2026-11-24 10:11:12.5+00 BC',
      '12026-11-24 10:11:12+00',
    ]) {
      // the driver answers infinity as a number
      const read = (value: unknown) => String(value instanceof Date ? value.getTime() : value);
      expect(read(parseTimestamptz(text))).toBe(read(driver(text)));
    }
  });
});
