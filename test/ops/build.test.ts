/**
 * The build `npm install` runs (`prepare`): one bundled module beside its migrations, quick enough not to
 * weigh on an install, that starts the service as `npm start` would.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../../src/lib/secrets.ts';
import { freePort } from './ponte-process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = `${ROOT}dist-test-${randomBase62(8)}`;

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe('the install-time build', () => {
  it('bundles the service into one module with every migration beside it, and a stamp', () => {
    const began = performance.now();
    const result = spawnSync(process.execPath, ['scripts/build.mjs', OUT], { cwd: ROOT, encoding: 'utf8' });
    const seconds = (performance.now() - began) / 1000;
    expect(result.status).toBe(0);
    expect(result.stdout).not.toMatch(/build (failed|skipped)/);
    expect(existsSync(`${OUT}/main.js`)).toBe(true);
    expect(existsSync(`${OUT}/.built`)).toBe(true);
    expect(readdirSync(`${OUT}/migrations`).sort()).toEqual(readdirSync(`${ROOT}src/db/migrations`).sort());
    // The type-checking compiler took 18 s of a 57 s install on a loaded machine; transpiling takes < 1 s.
    expect(seconds).toBeLessThan(10);
  });

  it('starts, migrates a new database and answers on its listeners', async () => {
    const [production, sandbox, operator, dashboard] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
    const child = spawn(process.execPath, [`${OUT}/main.js`], {
      cwd: ROOT,
      env: {
        ...inherited,
        PONTE_DATA_DIR: 'memory://',
        PONTE_WORKERS: 'false',
        PONTE_PRODUCTION_URL: `http://127.0.0.1:${production}`,
        PONTE_SANDBOX_URL: `http://127.0.0.1:${sandbox}`,
        PONTE_OPERATOR_URL: `http://127.0.0.1:${operator}`,
        PONTE_DASHBOARD_URL: `http://127.0.0.1:${dashboard}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await expect
        .poll(() => output.includes('Ponte listening') || child.exitCode !== null, { timeout: 120_000 })
        .toBe(true);
      expect(output).toContain('Ponte listening');
      const health = await fetch(`http://127.0.0.1:${sandbox}/healthz`);
      expect(health.status).toBe(200);
      const key = /sk_sandbox_[0-9A-Za-z]+/.exec(output)?.[0];
      expect(key).toBeDefined();
      const customers = await fetch(`http://127.0.0.1:${sandbox}/customers`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(customers.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 150_000);
});
