/**
 * The real server as a child process, started as `npm start` starts it (`node scripts/start.mjs`: the
 * compiled service when the build is current, else the sources through tsx, in that same process, so
 * signals reach the server itself rather than a wrapper), on free ports, over the test run's database.
 * Its JSON log lines are collected so tests can wait for a moment of its life ("listening", "incoming
 * request") instead of sleeping.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { randomBase62 } from '../../src/lib/secrets.ts';
import { pgliteCopy, TEST_POOL_SIZE } from '../helpers/database.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type LogLine = { msg?: string; level?: number; [key: string]: unknown };

export type PonteProcess = {
  child: ChildProcess;
  operatorToken: string;
  urls: { production: string; sandbox: string; operator: string };
  logs: LogLine[];
  /** Resolves with the first log line (past or future) that matches. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * The database the test run uses (PostgreSQL), or a new embedded one in a directory of its own holding
 * the run's migrated database, as an existing installation would (`dir`: removed when the process exits).
 */
async function databaseEnv(): Promise<{ env: NodeJS.ProcessEnv; dir?: string }> {
  const url = inject('testDatabaseUrl');
  if (url) return { env: { DATABASE_URL: url } };
  const dir = mkdtempSync(join(tmpdir(), 'ponte-process-'));
  await (await pgliteCopy(dir))?.close();
  return { env: { PONTE_DATA_DIR: dir }, dir };
}

/**
 * `imports`: modules loaded into the process before the server (`node --import`), such as fault hooks.
 * A port found free can be taken before the process binds it (by another test's process, or as the
 * local port of an outgoing connection): a process that stops on that is started again on other ports.
 */
export async function spawnPonte(
  env: NodeJS.ProcessEnv = {},
  options: { imports?: string[] } = {},
): Promise<PonteProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnOnce(env, options);
    } catch (error) {
      if (attempt === 5 || !(error instanceof Error) || !/EADDRINUSE|is in use/.test(error.message))
        throw error;
    }
  }
}

async function spawnOnce(env: NodeJS.ProcessEnv, options: { imports?: string[] }): Promise<PonteProcess> {
  const [production, sandbox, operator, dashboard] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const operatorToken = `bootstrap-${randomBase62(32)}`;
  const urls = {
    production: `http://127.0.0.1:${production}`,
    sandbox: `http://127.0.0.1:${sandbox}`,
    operator: `http://127.0.0.1:${operator}`,
  };
  const { DATABASE_URL: _ignored, REDIS_URL: _none, ...inherited } = process.env;
  // As `npm start` runs it: the compiled service when the build is current, else the sources through tsx.
  // Modules loaded first (fault hooks written in TypeScript) come through tsx.
  const database = env.PONTE_DATA_DIR ? { env: {} } : await databaseEnv();
  const imports = (options.imports ?? []).flatMap((module) => ['--import', module]);
  const preload = imports.length > 0 ? ['--import', 'tsx', ...imports] : [];
  const child = spawn(process.execPath, [...preload, 'scripts/start.mjs'], {
    cwd: ROOT,
    env: {
      ...inherited,
      ...database.env,
      PONTE_PRODUCTION_URL: urls.production,
      PONTE_SANDBOX_URL: urls.sandbox,
      PONTE_OPERATOR_URL: urls.operator,
      PONTE_DASHBOARD_URL: `http://127.0.0.1:${dashboard}`,
      PONTE_OPERATOR_TOKEN: operatorToken,
      PONTE_LOG_LEVEL: 'info',
      // the test servers' share of the server's connections (test/helpers/server.ts)
      PONTE_DATABASE_POOL_SIZE: TEST_POOL_SIZE,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  const logs: LogLine[] = [];
  const raw: string[] = [];
  const waiters = new Set<{ match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>();
  let buffered = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    raw.push(chunk);
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const text of lines) {
      if (!text.startsWith('{')) continue;
      let line: LogLine;
      try {
        line = JSON.parse(text);
      } catch {
        continue;
      }
      logs.push(line);
      for (const waiter of waiters) {
        if (waiter.match(line)) {
          waiters.delete(waiter);
          waiter.resolve(line);
        }
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => raw.push(chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      if (database.dir) rmSync(database.dir, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );

  const waitForLog = (match: (line: LogLine) => boolean, timeoutMs = 30_000) => {
    const seen = logs.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<LogLine>((resolve, reject) => {
      const waiter = { match, resolve };
      waiters.add(waiter);
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`log line not seen within ${timeoutMs} ms; output:\n${raw.join('')}`));
      }, timeoutMs);
      exited.then(() => {
        if (!waiters.has(waiter)) return;
        clearTimeout(timer);
        waiters.delete(waiter);
        reject(new Error(`the process exited first; output:\n${raw.join('')}`));
      });
      const done = waiter.resolve;
      waiter.resolve = (line) => {
        clearTimeout(timer);
        done(line);
      };
    });
  };

  const ponte: PonteProcess = {
    child,
    operatorToken,
    urls,
    logs,
    waitForLog,
    exited,
    output: () => raw.join(''),
  };
  await waitForLog((line) => typeof line.msg === 'string' && line.msg.startsWith('Ponte listening'), 150_000);
  return ponte;
}

/** A project with a production key, created through the process's operator API. */
export async function newTenantOver(ponte: PonteProcess): Promise<{ projectId: string; key: string }> {
  const headers = { authorization: `Bearer ${ponte.operatorToken}`, 'content-type': 'application/json' };
  const project = (await (
    await fetch(`${ponte.urls.operator}/operator/projects`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Ops test partner' }),
    })
  ).json()) as { id: string };
  const issued = (await (
    await fetch(`${ponte.urls.operator}/operator/projects/${project.id}/api-keys`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ environment: 'production' }),
    })
  ).json()) as { key: string };
  return { projectId: project.id, key: issued.key };
}

/** Ends the process if a test left it running. */
export async function stopPonte(ponte: PonteProcess | undefined): Promise<void> {
  if (!ponte || ponte.child.exitCode !== null || ponte.child.signalCode !== null) return;
  ponte.child.kill('SIGKILL');
  await ponte.exited;
}
