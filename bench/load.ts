/**
 * Drives one target with autocannon. A target rotates over a list of paths (each connection walks the
 * list in turn), so reads by id are spread over many rows. Every answer that is not 2xx, every socket
 * error and every timeout is counted, per status code, so the caller can fail loudly.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import autocannon from 'autocannon';
import { type CpuUse, cpuMeter } from './cpu.ts';

export type Target = {
  name: string;
  origin: string;
  paths: string[];
  headers: Record<string, string>;
  /** The server's process, whose CPU time per answered request is reported (Linux). */
  pid?: number | undefined;
  /** The database its PostgreSQL backends serve, whose CPU time per answered request is reported. */
  database?: string | undefined;
};

export type RunResult = {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** CPU time (user + system) the server process spent per answered request, in microseconds. */
  cpuUs: number | undefined;
  /** CPU time the PostgreSQL backends of the bench database spent per answered request, in µs. */
  dbCpuUs: number | undefined;
};

const perRequest = (seconds: number | undefined, requests: number) =>
  seconds === undefined ? undefined : (seconds / Math.max(requests, 1)) * 1e6;

function options(target: Target, connections: number): autocannon.Options {
  return {
    url: target.origin,
    connections,
    headers: target.headers,
    requests: target.paths.map((path) => ({ method: 'GET', path })),
    timeout: 10,
  };
}

function summarise(result: autocannon.Result, cpu: CpuUse): RunResult {
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = stats.count ?? 0;
  }
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    cpuUs: perRequest(cpu.server, result.requests.total),
    dbCpuUs: perRequest(cpu.database, result.requests.total),
  };
}

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/**
 * Lets the previous run's after-effects pass before the next one: this process's garbage from hundreds
 * of thousands of answers is collected now rather than during the next run, and the machine gets a
 * second to drain. Without it, a target measured right after a fast one (the bare baseline) came out
 * markedly slower.
 */
export async function settle(): Promise<void> {
  collectGarbage();
  await sleep(1_000);
}

export async function run(target: Target, connections: number, seconds: number): Promise<RunResult> {
  const meter = cpuMeter(target.pid, target.database);
  const result = await autocannon({ ...options(target, connections), duration: seconds });
  return summarise(result, meter.read());
}

export type Window = { rps: number; non2xx: number; cpuUs: number | undefined; dbCpuUs: number | undefined };

/**
 * One sustained run of `seconds`, reporting each window of `windowSeconds` as it closes: req/s, how many
 * answers were not 2xx, and the server's CPU time per request in that window.
 */
export async function sustained(
  target: Target,
  connections: number,
  seconds: number,
  windowSeconds: number,
  onWindow: (index: number, window: Window) => void,
): Promise<{ result: RunResult; windows: Window[] }> {
  let done = 0;
  let failed = 0;
  const windows: Window[] = [];
  let finish: (error: Error | null, result: autocannon.Result) => void = () => {};
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    finish = (error, result) => (error ? reject(error) : resolve(result));
  });
  // One second more than the windows need, so the last window closes before the load stops.
  const count = Math.floor(seconds / windowSeconds);
  const instance = autocannon({ ...options(target, connections), duration: seconds + 1 }, (error, result) =>
    finish(error, result),
  );
  instance.on('response', (_client, statusCode) => {
    done++;
    if (statusCode < 200 || statusCode > 299) failed++;
  });
  const overall = cpuMeter(target.pid, target.database);
  const perWindow = cpuMeter(target.pid, target.database);
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = perWindow.read();
    const window: Window = {
      rps: done / ((now - last) / 1000),
      non2xx: failed,
      cpuUs: perRequest(cpu.server, done),
      dbCpuUs: perRequest(cpu.database, done),
    };
    onWindow(windows.length, window);
    windows.push(window);
    done = 0;
    failed = 0;
    last = now;
    if (windows.length === count) clearInterval(timer);
  }, windowSeconds * 1000);
  try {
    const result = await finished;
    return { result: summarise(result, overall.read()), windows };
  } finally {
    clearInterval(timer);
  }
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
