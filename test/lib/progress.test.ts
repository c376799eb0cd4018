import { describe, expect, it } from 'vitest';
import { progressLine } from '../../src/lib/progress.ts';

/** Carriage return, then erase to the end of the line: the terminal's redraw in place. */
const REDRAW = '\r\u001b[K';

const output = (isTTY: boolean) => {
  const written: string[] = [];
  return { isTTY, written, write: (chunk: string) => written.push(chunk) > 0 };
};

describe('progress of a long command', () => {
  it('in a log, writes a plain line at each tenth of the way, not one per update', () => {
    const out = output(false);
    const line = progressLine(out, 'restoring', 'rows');
    for (let done = 0; done <= 1_000_000; done += 1_000) line.update(done, 1_000_000);
    line.finish('1,000,000 rows');
    expect(out.written).toHaveLength(12);
    expect(out.written[0]).toMatch(/^restoring: 0\/1,000,000 rows \(0%, [\d.]+ s\)\n$/);
    expect(out.written[5]).toMatch(/^restoring: 500,000\/1,000,000 rows \(50%, /);
    expect(out.written[10]).toMatch(/^restoring: 1,000,000\/1,000,000 rows \(100%, /);
    expect(out.written[11]).toMatch(/^restoring: 1,000,000 rows in [\d.]+ s\n$/);
    expect(out.written.join('')).not.toContain('\r');
  });

  it('on a terminal, redraws one line with a bar, then ends it with the summary', () => {
    const out = output(true);
    const line = progressLine(out, 'backing up', 'tables');
    line.update(1, 4);
    line.update(4, 4);
    line.finish('4 tables');
    expect(out.written.every((chunk) => chunk.startsWith(REDRAW))).toBe(true);
    const [first, last, summary] = out.written.map((chunk) => chunk.slice(REDRAW.length));
    expect(first).toMatch(/^backing up \[#{6}\.{18}\] 25% 1\/4 tables \([\d.]+ s\)$/);
    expect(last).toMatch(/^backing up \[#{24}\] 100% 4\/4 tables/);
    expect(summary).toMatch(/^backing up: 4 tables in [\d.]+ s\n$/);
  });

  it('counts work whose size is not known yet as done', () => {
    const out = output(false);
    progressLine(out, 'importing', 'rows').update(0, 0);
    expect(out.written[0]).toMatch(/^importing: 0\/0 rows \(100%, /);
  });
});
