/**
 * Drives a write route with autocannon (each request's body from `body()`), counting 201s apart from
 * every other answer, and measures the CPU time the server process and the PostgreSQL backends of the
 * bench database spent per answered request, as the read benches do.
 */
import autocannon from 'autocannon';
import { cpuMeter } from './cpu.ts';
import { median, settle } from './load.ts';
import { loadWindows, monotonicMicros } from './profile.ts';
import { table } from './report.ts';

export type WriteRun = {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  created: number;
  other: number;
  errors: number;
  /** Answers other than 201, per status code. */
  statusCodes: Record<string, number>;
  /** Server CPU (user + system) per answered request, µs. */
  cpuUs: number | undefined;
  /** PostgreSQL backends' CPU per answered request, µs. */
  dbCpuUs: number | undefined;
  /** When the run started and ended (monotonic µs), for the profile's load windows. */
  window: [number, number];
};

export type WriteTarget = {
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: () => string;
  pid?: number | undefined;
  database?: string | undefined;
};

const perRequest = (seconds: number | undefined, requests: number) =>
  seconds === undefined ? undefined : (seconds / Math.max(requests, 1)) * 1e6;

export async function driveWrites(
  target: WriteTarget,
  connections: number,
  seconds: number,
): Promise<WriteRun> {
  const meter = cpuMeter(target.pid, target.database);
  const from = monotonicMicros();
  const result = await autocannon({
    url: target.origin,
    connections,
    duration: seconds,
    timeout: 10,
    headers: { ...target.headers, 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        path: target.path,
        setupRequest: (request) => ({ ...request, body: target.body() }),
      },
    ],
  });
  const cpu = meter.read();
  const window: [number, number] = [from, monotonicMicros()];
  const statusCodes: Record<string, number> = {};
  let created = 0;
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    if (code === '201') created = stats.count ?? 0;
    else statusCodes[code] = stats.count ?? 0;
  }
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    created,
    other: result.requests.total - created,
    errors: result.errors + result.timeouts,
    statusCodes,
    cpuUs: perRequest(cpu.server, result.requests.total),
    dbCpuUs: perRequest(cpu.database, result.requests.total),
    window,
  };
}

export const microseconds = (value: number | undefined) => (value === undefined ? '' : value.toFixed(0));

/** "409 x3, 500 x2": the answers that were not 201. */
export const otherAnswers = (runs: WriteRun[]) => {
  const counts = new Map<string, number>();
  for (const run of runs) {
    for (const [code, count] of Object.entries(run.statusCodes))
      counts.set(code, (counts.get(code) ?? 0) + count);
  }
  return [...counts].map(([code, count]) => `${code} x${count}`).join(', ');
};

export type Contender = {
  /** As printed in the table. */
  name: string;
  target: WriteTarget;
  /** The service under test: its runs are the profile's load windows. */
  service: boolean;
};

export type Compared = {
  /** The measured runs of each contender, in the order given. */
  measured: WriteRun[][];
  /** The same with each contender's warm-up first: every answer of these must be 201. */
  all: WriteRun[][];
};

/**
 * A warm-up per contender, then the runs interleaved (run 1 of each in order, run 2 in reverse, ...),
 * each preceded by `settle()`, so that both face the same machine. Prints each run as it ends.
 */
export async function compareWrites(
  settings: { connections: number; warmupSeconds: number; runSeconds: number; runs: number },
  contenders: Contender[],
  log: (line: string) => void,
): Promise<Compared> {
  const measured: WriteRun[][] = contenders.map(() => []);
  const all: WriteRun[][] = [];
  for (const contender of contenders) {
    all.push([await driveWrites(contender.target, settings.connections, settings.warmupSeconds)]);
  }
  const order = contenders.map((_, index) => index);
  for (let i = 0; i < settings.runs; i++) {
    for (const index of i % 2 === 0 ? order : [...order].reverse()) {
      const contender = contenders[index]!;
      await settle();
      const result = await driveWrites(contender.target, settings.connections, settings.runSeconds);
      if (contender.service) loadWindows.push(result.window);
      log(
        `  ${contender.name}: ${result.rps.toFixed(0)} req/s, server CPU ${microseconds(result.cpuUs)} µs/req, ` +
          `PostgreSQL CPU ${microseconds(result.dbCpuUs)} µs/req`,
      );
      measured[index]!.push(result);
      all[index]!.push(result);
    }
  }
  return { measured, all };
}

const medianOf = (runs: WriteRun[], pick: (run: WriteRun) => number | undefined) => {
  const values = runs.map(pick).filter((value): value is number => value !== undefined);
  return values.length === 0 ? undefined : median(values);
};

/** The comparison's table: the first contender is the baseline, each other its ratio and verdict. */
export function writeTable(
  contenders: Contender[],
  compared: Compared,
  target: number,
  baselineLabel: string,
): { table: string; ratios: number[] } {
  const rates = compared.measured.map((runs) => median(runs.map((r) => r.rps)));
  const ratios = rates.map((rate) => rate / rates[0]!);
  const rows = contenders.map((contender, index) => {
    const runs = compared.measured[index]!;
    const all = compared.all[index]!;
    const ratio = ratios[index]!;
    return [
      contender.name,
      rates[index]!.toFixed(0),
      String(median(runs.map((r) => r.p50))),
      String(median(runs.map((r) => r.p99))),
      microseconds(medianOf(runs, (r) => r.cpuUs)),
      microseconds(medianOf(runs, (r) => r.dbCpuUs)),
      String(all.reduce((sum, r) => sum + r.other, 0)),
      String(all.reduce((sum, r) => sum + r.errors, 0)),
      index === 0 ? '' : ratio.toFixed(2),
      index === 0 ? '' : ratio >= target ? `ok (>= ${target})` : `BELOW ${target}`,
    ];
  });
  return {
    table: table(
      [
        'target',
        'req/s',
        'p50 ms',
        'p99 ms',
        'server µs/req',
        'PostgreSQL µs/req',
        'non-201',
        'errors',
        `x ${baselineLabel}`,
        'verdict',
      ],
      rows,
    ),
    ratios,
  };
}

/** Logs a failure for each contender with an answer other than 201 (warm-ups included); true if any. */
export function non201(contenders: Contender[], compared: Compared, log: (line: string) => void): boolean {
  let failed = false;
  contenders.forEach((contender, index) => {
    const runs = compared.all[index]!;
    const other = runs.reduce((sum, r) => sum + r.other, 0);
    const errors = runs.reduce((sum, r) => sum + r.errors, 0);
    if (other > 0 || errors > 0) {
      log(
        `FAILED: every request of ${contender.name} must answer 201: ${other} other answers (${otherAnswers(runs)}), ` +
          `${errors} socket errors or timeouts`,
      );
      failed = true;
    }
  });
  return failed;
}
