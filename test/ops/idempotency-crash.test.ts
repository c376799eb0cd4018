import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectPglite } from '../../src/db/pglite.ts';
import { pgliteCopy } from '../helpers/database.ts';
import { individualBody } from '../helpers/factories.ts';
import { usingPostgres } from '../helpers/server.ts';
import { newTenantOver, type PonteProcess, spawnPonte, stopPonte } from './ponte-process.ts';

const CRASH_HOOK = './test/ops/crash-after-commit.ts';

// Both processes share one database: the test run's PostgreSQL, or an embedded one in a directory.
const dataDir = usingPostgres() ? null : mkdtempSync(join(tmpdir(), 'ponte-crash-'));
const env = dataDir ? { PONTE_DATA_DIR: dataDir } : {};

/** Runs SQL on the shared database while no process has it open (PGlite allows one at a time). */
async function sql<Row>(text: string, params: unknown[]): Promise<Row[]> {
  if (!dataDir) {
    const client = new pg.Client({ connectionString: inject('testDatabaseUrl')! });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as Row[];
    } finally {
      await client.end();
    }
  }
  const db = await connectPglite(dataDir);
  try {
    return await db.query<Row>(text, params);
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  // the run's migrated database, as an existing installation's
  if (dataDir) await (await pgliteCopy(dataDir))?.close();
});

let processes: PonteProcess[] = [];
afterEach(async () => {
  await Promise.all(processes.map(stopPonte));
  processes = [];
});
afterAll(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a process killed after an idempotent change committed, before its answer was sent', () => {
  it('leaves the answer stored with the change: a retry on a fresh process replays it and creates nothing more', async () => {
    const first = await spawnPonte(env, { imports: [CRASH_HOOK] });
    processes.push(first);
    const { projectId, key } = await newTenantOver(first);
    const idempotencyKey = `crash-${randomUUID()}`;
    const body = JSON.stringify(individualBody());
    const post = (url: string, extra: Record<string, string> = {}) =>
      fetch(`${url}/customers`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey,
          ...extra,
        },
        body,
      });

    // The first attempt never gets an answer: its process dies right after the COMMIT.
    await expect(post(first.urls.production, { 'x-test-crash-after-commit': '1' })).rejects.toThrow();
    expect((await first.exited).signal).toBe('SIGKILL');

    // Long enough for the first request's lease on the key to be over.
    await sql(`UPDATE idempotency_keys SET locked_at = locked_at - interval '1 hour' WHERE key = $1`, [
      idempotencyKey,
    ]);

    const second = await spawnPonte(env);
    processes.push(second);
    const retry = await post(second.urls.production);
    const retried = await retry.text();
    expect(retry.status, retried).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('content-type')).toBe('application/json; charset=utf-8');

    // The replayed answer is the customer as created (its verification link names the first process's
    // address, which each process has its own of), and every replay is the same bytes.
    type Customer = { id: string; verification: { link: string } };
    const created = JSON.parse(retried) as Customer;
    const read = (await (
      await fetch(`${second.urls.production}/customers/${created.id}`, {
        headers: { authorization: `Bearer ${key}` },
      })
    ).json()) as Customer;
    expect(created.verification.link).toMatch(new RegExp(`^${first.urls.production}/verify/`));
    const withoutLink = ({ verification: { link: _link, ...verification }, ...rest }: Customer) => ({
      ...rest,
      verification,
    });
    expect(withoutLink(created)).toEqual(withoutLink(read));
    expect(await (await post(second.urls.production)).text()).toBe(retried);

    await stopPonte(second);
    const [counts] = await sql<{ customers: number; events: number }>(
      `SELECT (SELECT count(*) FROM customers WHERE project_id = $1)::int AS customers,
              (SELECT count(*) FROM events WHERE project_id = $1 AND type = 'customer.created')::int AS events`,
      [projectId],
    );
    expect(counts).toEqual({ customers: 1, events: 1 });
  }, 300_000);
});
