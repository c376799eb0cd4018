/**
 * The first run's secrets (sandbox key, operator token, dashboard invitation) are shown once, so none
 * may be stored without having been shown. A process killed on its first start, right after printing
 * them or right after committing them, is started again over the same database: the output of the two
 * starts holds working credentials.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers/server.ts';
import { isolatedDatabase } from '../off-ramp/processes.ts';
import { freePort, type PonteProcess, spawnPonte, stopPonte } from './ponte-process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CRASH_HOOK = './test/ops/crash-at-first-run.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A database no first run has seen: an empty PostgreSQL database, or a new embedded data directory. */
async function freshDatabase(): Promise<NodeJS.ProcessEnv> {
  if (usingPostgres()) {
    const db = await isolatedDatabase();
    cleanups.push(() => db.drop());
    return { DATABASE_URL: db.url };
  }
  const dir = mkdtempSync(join(tmpdir(), 'ponte-first-run-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return { PONTE_DATA_DIR: dir };
}

async function ports(): Promise<NodeJS.ProcessEnv> {
  const [production, sandbox, operator, dashboard] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  return {
    PONTE_PRODUCTION_URL: `http://127.0.0.1:${production}`,
    PONTE_SANDBOX_URL: `http://127.0.0.1:${sandbox}`,
    PONTE_OPERATOR_URL: `http://127.0.0.1:${operator}`,
    PONTE_DASHBOARD_URL: `http://127.0.0.1:${dashboard}`,
  };
}

/**
 * A first start killed by the crash hook at `moment`: its whole output once it has died. A port found
 * free may be taken by another test file before the start binds it; the start then stops before it
 * creates or shows anything, naming the port, and is tried again on other ports.
 */
async function killedFirstStart(
  database: NodeJS.ProcessEnv,
  moment: 'printed' | 'committed',
): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const { signal, output } = await firstStart(database, moment);
    if (signal === null && attempt < 5 && /^port \d+ is in use/m.test(output)) continue;
    expect(signal, output).toBe('SIGKILL');
    return output;
  }
}

async function firstStart(
  database: NodeJS.ProcessEnv,
  moment: 'printed' | 'committed',
): Promise<{ signal: NodeJS.Signals | null; output: string }> {
  const { DATABASE_URL: _shared, REDIS_URL: _none, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', CRASH_HOOK, 'scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      ...inherited,
      ...database,
      ...(await ports()),
      PONTE_OPERATOR_TOKEN: '',
      PONTE_LOG_LEVEL: 'info',
      PONTE_TEST_FIRST_RUN_CRASH: moment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, exitSignal) => resolve(exitSignal)),
  );
  return { signal, output };
}

type Secrets = { sandboxKey: string; operatorToken: string; inviteUrl: string };

/** The first-run secrets printed in `output`, or null when none were. */
function printedSecrets(output: string): Secrets | null {
  const sandboxKey = /Sandbox API key:\s+(sk_sandbox_\S+)/.exec(output)?.[1];
  const operatorToken = /Operator token:\s+(op_\S+)/.exec(output)?.[1];
  const inviteUrl = /(http:\/\/\S+\/invite\/[0-9A-Za-z]{43})/.exec(output)?.[1];
  return sandboxKey && operatorToken && inviteUrl ? { sandboxKey, operatorToken, inviteUrl } : null;
}

/** Whether each of the secrets works against the running process. */
async function working(ponte: PonteProcess, secrets: Secrets) {
  const sandbox = await fetch(`${ponte.urls.sandbox}/customers?limit=1`, {
    headers: { authorization: `Bearer ${secrets.sandboxKey}` },
  });
  const operator = await fetch(`${ponte.urls.operator}/operator/operators?limit=1`, {
    headers: { authorization: `Bearer ${secrets.operatorToken}` },
  });
  const invite = await fetch(new URL(new URL(secrets.inviteUrl).pathname, secretsOrigin(ponte)));
  await Promise.all([sandbox.text(), operator.text(), invite.text()]);
  return { sandbox: sandbox.status, operator: operator.status, invite: invite.status };
}

const dashboards = new Map<PonteProcess, string>();
const secretsOrigin = (ponte: PonteProcess) => dashboards.get(ponte)!;

async function restart(database: NodeJS.ProcessEnv): Promise<PonteProcess> {
  const dashboard = `http://127.0.0.1:${await freePort()}`;
  const ponte = await spawnPonte({ ...database, PONTE_DASHBOARD_URL: dashboard, PONTE_OPERATOR_TOKEN: '' });
  cleanups.push(() => stopPonte(ponte));
  dashboards.set(ponte, dashboard);
  return ponte;
}

describe('first-run secrets survive a SIGKILL on the first start', () => {
  it('killed right after printing them: the restart prints credentials that work', async () => {
    const database = await freshDatabase();
    const killed = await killedFirstStart(database, 'printed');
    expect(killed).toContain('Ponte is set up');
    const ponte = await restart(database);
    const secrets = printedSecrets(ponte.output());
    expect(secrets, `the restart printed no credentials:\n${ponte.output()}`).not.toBeNull();
    expect(await working(ponte, secrets!)).toEqual({ sandbox: 200, operator: 200, invite: 200 });
    // what the killed process printed was never stored
    const unseen = printedSecrets(killed)!;
    expect(await working(ponte, unseen)).toEqual({ sandbox: 401, operator: 401, invite: 404 });
  }, 300_000);

  it('killed right after committing them: they were printed first, and work after the restart', async () => {
    const database = await freshDatabase();
    const killed = await killedFirstStart(database, 'committed');
    const secrets = printedSecrets(killed);
    expect(secrets, `the killed process printed no credentials:\n${killed}`).not.toBeNull();
    const ponte = await restart(database);
    expect(printedSecrets(ponte.output())).toBeNull();
    expect(await working(ponte, secrets!)).toEqual({ sandbox: 200, operator: 200, invite: 200 });
  }, 300_000);
});
