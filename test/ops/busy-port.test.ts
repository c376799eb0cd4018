/**
 * `npm start` on an address another program holds: one clear line naming the variable to change, and
 * nothing created or shown first (the first run's secrets are shown once, so they must not be spent).
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './ponte-process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let busy: Server;
let busyPort: number;

beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

function start(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { DATABASE_URL: _db, REDIS_URL: _redis, PONTE_OPERATOR_TOKEN: _token, ...inherited } = process.env;
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { ...inherited, PONTE_DATA_DIR: 'memory://', PONTE_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

const URLS = ['PONTE_PRODUCTION_URL', 'PONTE_SANDBOX_URL', 'PONTE_OPERATOR_URL', 'PONTE_DASHBOARD_URL'];

/**
 * `npm start` with `busyVariable` on the busy port and the other addresses on ports found free. Another
 * test file may take one of those between the look and the start: the answer then names that port, and
 * the start is tried again on other ports.
 */
async function startWithBusy(busyVariable: string) {
  for (let attempt = 1; ; attempt++) {
    const env: NodeJS.ProcessEnv = {};
    for (const variable of URLS) {
      env[variable] = `http://127.0.0.1:${variable === busyVariable ? busyPort : await freePort()}`;
    }
    const result = await start(env);
    const takenMeanwhile = /^port (\d+) is in use/.exec(result.stderr.trim());
    if (attempt < 5 && takenMeanwhile && Number(takenMeanwhile[1]) !== busyPort) continue;
    return result;
  }
}

describe('npm start on a busy port', () => {
  it('names the variable to change in one line and shows no first-run secret', async () => {
    const result = await startWithBusy('PONTE_SANDBOX_URL');
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`port ${busyPort} is in use: set PONTE_SANDBOX_URL to another address`);
    expect(result.stdout).not.toMatch(/shown once|sk_sandbox_|op_[0-9A-Za-z]{40}|EADDRINUSE/);
    expect(result.stderr).not.toMatch(/EADDRINUSE|"stack"/);
  }, 120_000);

  it('names the dashboard variable when the dashboard port is the busy one', async () => {
    const result = await startWithBusy('PONTE_DASHBOARD_URL');
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `port ${busyPort} is in use: set PONTE_DASHBOARD_URL to another address`,
    );
    expect(result.stdout).not.toMatch(/shown once|sk_sandbox_/);
  }, 120_000);
});
