/**
 * pg against postgres.js on the minimal primary-key route, in one server process: every driver gets a
 * short warm-up and then one sustained run, and the throughput of every window is printed as it closes,
 * so a driver that slows down over time shows it.
 */
import { authorization, type BenchContext, databaseName, minimalServerEnv } from './context.ts';
import { run, settle, sustained, type Window } from './load.ts';
import { startChild, waitUntilReady } from './processes.ts';
import { loadWindows, monotonicMicros } from './profile.ts';
import { statusCodes, table } from './report.ts';
import { DRIVERS, type Driver } from './servers/drivers.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

function chosenDrivers(): Driver[] {
  const raw = process.env.BENCH_DRIVERS?.trim() || 'pg,postgres';
  const drivers = raw.split(',').map((name) => name.trim());
  const unknown = drivers.filter((name) => !(DRIVERS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`BENCH_DRIVERS: unknown driver(s) ${unknown.join(', ')}`);
  return drivers as Driver[];
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1);

export async function compareDrivers(ctx: BenchContext): Promise<number> {
  const { settings, samples } = ctx;
  const drivers = chosenDrivers();
  const server = await minimalServerEnv(ctx, drivers);
  const child = startChild('driver server', 'bench/servers/minimal.ts', server.env, settings.profileDir);
  await waitUntilReady(child, `${server.origin}/healthz`);
  const headers = authorization(ctx);
  const seconds = settings.driverSeconds;
  const window = settings.driverWindowSeconds;

  const targets = drivers.map((driver) => ({
    name: driver,
    origin: server.origin,
    paths: samples.bankAccounts.map((id) => `/${driver}/bank-accounts/${id}`),
    headers,
    pid: child.process.pid,
    database: databaseName(ctx),
  }));
  // Every driver must answer the same body for the same account, or the comparison is not like for like.
  const bodies = await Promise.all(
    targets.map(async (target) => {
      const response = await fetch(target.origin + target.paths[0], { headers });
      return { driver: target.name, status: response.status, body: await response.text() };
    }),
  );
  const reference = JSON.stringify(JSON.parse(bodies[0]!.body));
  for (const { driver, status, body } of bodies) {
    if (status !== 200 || JSON.stringify(JSON.parse(body)) !== reference) {
      throw new Error(
        `${driver} answers ${status} ${body.slice(0, 300)}; expected ${reference.slice(0, 300)}`,
      );
    }
  }
  log(`every driver answers the same ${Buffer.byteLength(bodies[0]!.body)}-byte body`);

  let failed = false;
  const series = new Map<Driver, Window[]>();
  for (const [index, driver] of drivers.entries()) {
    log(
      `\n${driver}: ${seconds} s sustained, ${settings.connections} connections, req/s per ${window} s window`,
    );
    const target = targets[index]!;
    // A short warm-up right before the run, so that it does not pay for compiling the server's code or
    // opening the pool; what is left to see is how the driver holds up under a sustained load.
    await settle();
    const warm = await run(target, settings.connections, settings.warmupSeconds);
    log(`  warm-up ${settings.warmupSeconds} s: ${warm.rps.toFixed(0)} req/s`);
    if (warm.non2xx + warm.errors + warm.timeouts > 0) {
      failed = true;
      log(
        `  FAILED: ${statusCodes(warm)}; errors ${warm.errors}, timeouts ${warm.timeouts}\n${child.output()}`,
      );
    }
    const from = monotonicMicros();
    const { result, windows } = await sustained(target, settings.connections, seconds, window, (i, w) =>
      log(
        `  ${i * window}-${(i + 1) * window} s: ${w.rps.toFixed(0)} req/s` +
          (w.cpuUs === undefined ? '' : `, server CPU ${w.cpuUs.toFixed(0)} µs/req`) +
          (w.dbCpuUs === undefined ? '' : `, PostgreSQL CPU ${w.dbCpuUs.toFixed(0)} µs/req`) +
          (w.non2xx ? `  (non-2xx ${w.non2xx})` : ''),
      ),
    );
    loadWindows.push([from, monotonicMicros()]);
    series.set(driver, windows);
    log(
      `  overall ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms` +
        (result.cpuUs === undefined ? '' : `, server CPU ${result.cpuUs.toFixed(0)} µs/req`) +
        (result.dbCpuUs === undefined ? '' : `, PostgreSQL CPU ${result.dbCpuUs.toFixed(0)} µs/req`),
    );
    if (result.non2xx + result.errors + result.timeouts > 0) {
      failed = true;
      log(
        `  FAILED: ${statusCodes(result)}; errors ${result.errors}, timeouts ${result.timeouts}\n${child.output()}`,
      );
    }
  }

  const count = Math.max(...[...series.values()].map((w) => w.length));
  const windowTable = (title: string, pick: (w: Window) => number | undefined) => {
    log(`\n${title} per ${window} s window\n`);
    log(
      table(
        [
          'driver',
          ...Array.from({ length: count }, (_, i) => `${i * window}-${(i + 1) * window}s`),
          'last/first',
        ],
        [...series].map(([driver, windows]) => {
          const values = windows.map(pick);
          const first = values[0];
          const last = values.at(-1);
          return [
            driver,
            ...Array.from({ length: count }, (_, i) => values[i]?.toFixed(0) ?? ''),
            first && last && values.length > 1 ? (last / first).toFixed(2) : '',
          ];
        }),
      ),
    );
  };
  windowTable('req/s', (w) => w.rps);
  windowTable('server CPU µs per request', (w) => w.cpuUs);
  windowTable('PostgreSQL CPU µs per request', (w) => w.dbCpuUs);

  // "Stays faster": compared over the second half of the run, once any early advantage has had time to fade.
  const late = [...series].map(([driver, windows]) => {
    const half = windows.slice(Math.floor(windows.length / 2));
    const cpu = half.map((w) => w.cpuUs).filter((v) => v !== undefined);
    return {
      driver,
      first: windows[0]?.rps ?? 0,
      late: mean(half.map((w) => w.rps)),
      lateCpu: cpu.length === half.length ? mean(cpu) : undefined,
    };
  });
  late.sort((a, b) => b.late - a.late);
  const [best, runnerUp] = late;
  if (best && runnerUp) {
    const firstLeader = [...late].sort((a, b) => b.first - a.first)[0]!;
    const cpu =
      best.lateCpu && runnerUp.lateCpu
        ? ` Server CPU per request over the same half: ${best.driver} ${best.lateCpu.toFixed(0)} µs, ` +
          `${runnerUp.driver} ${runnerUp.lateCpu.toFixed(0)} µs.`
        : '';
    log(
      `\nfirst window: ${firstLeader.driver} leads. Second half of the run: ${best.driver} stays faster, ` +
        `${best.late.toFixed(0)} against ${runnerUp.late.toFixed(0)} req/s for ${runnerUp.driver} ` +
        `(${((best.late / runnerUp.late - 1) * 100).toFixed(1)}% more).${cpu}`,
    );
  }
  return failed ? 1 : 0;
}
