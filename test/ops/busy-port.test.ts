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

describe('npm start on a busy port', () => {
  it('names the variable to change in one line and shows no first-run secret', async () => {
    const [production, operator, dashboard] = [await freePort(), await freePort(), await freePort()];
    const result = await start({
      PONTE_PRODUCTION_URL: `http://127.0.0.1:${production}`,
      PONTE_SANDBOX_URL: `http://127.0.0.1:${busyPort}`,
      PONTE_OPERATOR_URL: `http://127.0.0.1:${operator}`,
      PONTE_DASHBOARD_URL: `http://127.0.0.1:${dashboard}`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`port ${busyPort} is in use: set PONTE_SANDBOX_URL to another address`);
    expect(result.stdout).not.toMatch(/shown once|sk_sandbox_|op_[0-9A-Za-z]{40}|EADDRINUSE/);
    expect(result.stderr).not.toMatch(/EADDRINUSE|"stack"/);
  }, 120_000);

  it('names the dashboard variable when the dashboard port is the busy one', async () => {
    const [production, sandbox, operator] = [await freePort(), await freePort(), await freePort()];
    const result = await start({
      PONTE_PRODUCTION_URL: `http://127.0.0.1:${production}`,
      PONTE_SANDBOX_URL: `http://127.0.0.1:${sandbox}`,
      PONTE_OPERATOR_URL: `http://127.0.0.1:${operator}`,
      PONTE_DASHBOARD_URL: `http://127.0.0.1:${busyPort}`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `port ${busyPort} is in use: set PONTE_DASHBOARD_URL to another address`,
    );
    expect(result.stdout).not.toMatch(/shown once|sk_sandbox_/);
  }, 120_000);
});
