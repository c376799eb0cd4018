/**
 * Real Ponte processes over one PostgreSQL database of their own (their PSP is the simulator, in the
 * test's process), and small HTTP helpers for driving them.
 */
import pg from 'pg';
import { inject } from 'vitest';
import { type PonteProcess, spawnPonte } from '../ops/ponte-process.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field in assertions
export type Json = any;

export async function isolatedDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const shared = inject('testDatabaseUrl')!;
  const name = `ponte_moneyout_${Date.now()}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: shared });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: shared });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export async function call(
  base: string,
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

export async function operator(ponte: PonteProcess, path: string, body: unknown) {
  return call(ponte.urls.operator, 'POST', path, ponte.operatorToken, body);
}

export async function keysOver(ponte: PonteProcess) {
  const project = (await operator(ponte, '/operator/projects', { name: 'Money-out processes' })).body;
  const sandbox = (
    await operator(ponte, `/operator/projects/${project.id}/api-keys`, { environment: 'sandbox' })
  ).body;
  const production = (
    await operator(ponte, `/operator/projects/${project.id}/api-keys`, { environment: 'production' })
  ).body;
  return {
    projectId: project.id as string,
    sandbox: sandbox.key as string,
    production: production.key as string,
  };
}

export async function poll<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`not reached within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export { spawnPonte };
