/**
 * Drives a write route with autocannon (each request's body from `body()`), counting 201s apart from
 * every other answer, and measures the CPU time the server process and the PostgreSQL backends of the
 * bench database spent per answered request, as the read benches do.
 */
import autocannon from 'autocannon';
import { cpuMeter } from './cpu.ts';
import { monotonicMicros } from './profile.ts';

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
