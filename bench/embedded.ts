/**
 * `npm run bench -- embedded`: the default deployment, `npm start` on the embedded database (PGlite), in a
 * temporary data directory. A first start creates the directory (timed, no target); the second start, on
 * the existing directory, is measured: seconds from spawning the process to `/readyz` answering 200,
 * resident memory once it is ready and has settled, and the CPU it uses idle once its workers have backed
 * off. Each figure is printed with its target; a miss exits 2.
 *
 * Runs what `npm start` runs (`scripts/start.mjs`): the compiled dist/ when it is current, so the bench
 * builds first when a source file is newer than the build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { processCpu } from './cpu.ts';
import { freePorts, ROOT, startProgram } from './processes.ts';
import { table } from './report.ts';

const log = (line: string) => process.stdout.write(`${line}\n`);

export const EMBEDDED_TARGETS = { readySeconds: 3, residentMb: 250, idleCpuPercent: 1 };

function newestMtime(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Builds dist/ when it is missing or older than a source file, as `npm install` would have. */
function ensureBuilt(): void {
  const stamp = join(ROOT, 'dist/.built');
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestMtime(join(ROOT, 'src'))) return;
  log('dist/ is older than src/: building it first (npm start runs the build when it is current)');
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the build failed');
}

function residentMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `url` every 20 ms until it answers 200; the seconds since `since` (a performance.now()). */
async function readyAfter(url: string, since: number, exited: () => string | null): Promise<number> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const ended = exited();
    if (ended) throw new Error(`the service ${ended} before it was ready`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      if (response.status === 200) return (performance.now() - since) / 1000;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`not ready at ${url} within 180 s`);
    await sleep(20);
  }
}

export async function measureEmbedded(quick: boolean): Promise<number> {
  ensureBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'ponte-bench-embedded-'));
  const [production, sandbox, operator, dashboard] = await freePorts(4);
  const env = {
    PONTE_DATA_DIR: join(dataDir, 'data'),
    PONTE_PRODUCTION_URL: `http://127.0.0.1:${production}`,
    PONTE_SANDBOX_URL: `http://127.0.0.1:${sandbox}`,
    PONTE_OPERATOR_URL: `http://127.0.0.1:${operator}`,
    PONTE_DASHBOARD_URL: `http://127.0.0.1:${dashboard}`,
    PONTE_LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
  };
  const readyz = `http://127.0.0.1:${production}/readyz`;
  const settleSeconds = quick ? 15 : 30;
  // Then, before the idle window: the workers' sleeps reach their longest (30 s on the embedded database,
  // about a minute of doubling from their intervals), and V8's memory-reducing collections, which run
  // once about 30 s after start-up (some 200 ms of CPU), are behind; either of them inside the window
  // moved the idle figure between 0.55% and 1.0% from run to run.
  const backOffSeconds = 30;
  // A whole minute even when quick: the sweepers run once a minute, and a shorter window counts one
  // of their runs or none depending on where it falls
  const idleSeconds = 60;
  try {
    const start = async (name: string) => {
      const began = performance.now();
      const child = startProgram(name, process.execPath, ['scripts/start.mjs'], env);
      const seconds = await readyAfter(readyz, began, () => child.exit());
      return { child, seconds, cpu: processCpu(child.process.pid!) };
    };

    const first = await start('first start');
    log(`first start (creates the data directory): ready in ${first.seconds.toFixed(2)} s`);
    await first.child.stop();

    const second = await start('second start');
    const pid = second.child.process.pid!;
    log(
      `second start (existing data directory): ready in ${second.seconds.toFixed(2)} s, ` +
        `${second.cpu?.toFixed(2) ?? '?'} CPU s; settling ${settleSeconds} s (memory), ` +
        `${backOffSeconds} s more, then idle for ${idleSeconds} s`,
    );
    await sleep(settleSeconds * 1000);
    const resident = residentMb(pid);
    await sleep(backOffSeconds * 1000);
    const before = processCpu(pid);
    const loadBefore = loadavg()[0]!;
    await sleep(idleSeconds * 1000);
    const after = processCpu(pid);
    const loadAfter = loadavg()[0]!;
    const ended = second.child.exit();
    await second.child.stop();
    if (ended) throw new Error(`the service ${ended} while idle:\n${second.child.output()}`);
    const idlePercent =
      before === undefined || after === undefined ? undefined : ((after - before) / idleSeconds) * 100;

    const verdict = (value: number | undefined, target: number) =>
      value === undefined ? 'NOT MEASURED' : value <= target ? 'ok' : 'MISSED';
    const rows: [string, number | undefined, number, string][] = [
      ['start to /readyz 200 (s)', second.seconds, EMBEDDED_TARGETS.readySeconds, ''],
      ['resident memory after start (MB)', resident, EMBEDDED_TARGETS.residentMb, ''],
      ['idle CPU (% of a core)', idlePercent, EMBEDDED_TARGETS.idleCpuPercent, ''],
    ];
    log('');
    log(
      table(
        ['figure', 'measured', 'target (at most)', 'ratio', 'verdict'],
        rows.map(([name, value, target]) => [
          name,
          value === undefined ? '' : value.toFixed(name.startsWith('idle') ? 2 : name.includes('MB') ? 0 : 2),
          String(target),
          value === undefined ? '' : (value / target).toFixed(2),
          verdict(value, target),
        ]),
      ),
    );
    log(
      `\nCPU seconds to readiness: ${second.cpu?.toFixed(2) ?? '?'}; load average ${loadBefore.toFixed(2)} ` +
        `at the start of the idle window, ${loadAfter.toFixed(2)} at its end`,
    );
    const missed = rows.filter(([, value, target]) => value === undefined || value > target);
    if (missed.length > 0) {
      log(`\nTARGET MISSED: ${missed.map(([name]) => name).join('; ')}`);
      return 2;
    }
    return 0;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
