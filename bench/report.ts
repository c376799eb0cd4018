/** Plain-text tables for the terminal. */
import type { RunResult } from './load.ts';

export type Row = {
  name: string;
  /** Median over the runs of each figure; non-2xx, errors and timeouts summed over every run. */
  summary: RunResult;
  runs: number;
  versusBare?: number;
  versusMinimal?: number;
  /** The minimal baseline's CPU per request over this target's: 1.0 means as lean. */
  cpuVersusMinimal?: number;
  verdict?: string;
};

const pad = (value: string, width: number, right = false) =>
  right ? value.padStart(width) : value.padEnd(width);

export function table(headers: string[], rows: string[][], rightFrom = 1): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => pad(cell, widths[i]!, i >= rightFrom))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const ratio = (value?: number) => (value === undefined ? '' : value.toFixed(2));

export function resultsTable(rows: Row[]): string {
  return table(
    [
      'target',
      'req/s',
      'p50 ms',
      'p99 ms',
      'CPU µs/req',
      'PG µs/req',
      'non-2xx',
      'errors',
      'x bare',
      'x minimal',
      'CPU x minimal',
      'verdict',
    ],
    rows.map((row) => [
      row.name,
      row.summary.rps.toFixed(0),
      row.summary.p50.toFixed(0),
      row.summary.p99.toFixed(0),
      row.summary.cpuUs === undefined ? '' : row.summary.cpuUs.toFixed(0),
      row.summary.dbCpuUs === undefined ? '' : row.summary.dbCpuUs.toFixed(0),
      String(row.summary.non2xx),
      String(row.summary.errors + row.summary.timeouts),
      ratio(row.versusBare),
      ratio(row.versusMinimal),
      ratio(row.cpuVersusMinimal),
      row.verdict ?? '',
    ]),
  );
}

export const statusCodes = (result: RunResult) =>
  Object.entries(result.statusCodes)
    .map(([code, count]) => `${code}: ${count}`)
    .join(', ');
