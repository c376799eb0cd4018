import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { individualBody, validCpf } from '../helpers/factories.ts';
import { usingPostgres } from '../helpers/server.ts';
import { newTenantOver, type PonteProcess, spawnPonte, stopPonte } from './ponte-process.ts';

const NO_LIMIT = { PONTE_RATE_LIMIT_PER_SECOND: '1000000', PONTE_RATE_LIMIT_BURST: '1000000' };
const WRITERS = 8;
const ANSWERS_BEFORE_KILL = 60;

let processes: PonteProcess[] = [];
afterEach(async () => {
  await Promise.all(processes.map(stopPonte));
  processes = [];
});

describe.runIf(usingPostgres())('a process killed with SIGKILL under write load', () => {
  it('loses no acknowledged customer and no customer.created event', async () => {
    const first = await spawnPonte(NO_LIMIT);
    processes.push(first);
    const { projectId, key } = await newTenantOver(first);

    // Writers create customers until the process dies under them.
    const acknowledged = new Map<string, string>(); // customer id -> taxId
    let killed = false;
    let enough: () => void = () => {};
    const enoughAnswers = new Promise<void>((resolve) => {
      enough = resolve;
    });
    const writer = async () => {
      while (!killed) {
        const taxId = validCpf();
        try {
          const response = await fetch(`${first.urls.production}/customers`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify(individualBody({ taxId })),
          });
          const body = (await response.json()) as { id: string; taxId: string };
          if (response.status >= 200 && response.status < 300) acknowledged.set(body.id, body.taxId);
          else throw new Error(`unexpected ${response.status}: ${JSON.stringify(body)}`);
          if (acknowledged.size >= ANSWERS_BEFORE_KILL) enough();
        } catch (error) {
          if (!killed) throw error;
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);
    await Promise.race([enoughAnswers, Promise.all(writers)]);
    killed = true;
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    await Promise.all(writers);
    expect(acknowledged.size).toBeGreaterThanOrEqual(ANSWERS_BEFORE_KILL);

    // A new process on the same database finds every acknowledged customer.
    const second = await spawnPonte(NO_LIMIT);
    processes.push(second);
    for (const [id, taxId] of acknowledged) {
      const response = await fetch(`${second.urls.production}/customers/${id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(response.status, id).toBe(200);
      expect(((await response.json()) as { taxId: string }).taxId).toBe(taxId);
    }

    // Every committed customer, acknowledged or not, has its verification and its event.
    const db = new pg.Client({ connectionString: inject('testDatabaseUrl')! });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT c.id,
                (SELECT count(*) FROM events e
                  WHERE e.resource_id = c.id AND e.type = 'customer.created')::int AS events,
                (SELECT count(*) FROM verifications v WHERE v.customer_id = c.id)::int AS verifications
           FROM customers c WHERE c.project_id = $1`,
        [projectId],
      );
      expect(rows.length).toBeGreaterThanOrEqual(acknowledged.size);
      for (const row of rows) expect(row, row.id).toMatchObject({ events: 1, verifications: 1 });
    } finally {
      await db.end();
    }
  }, 300_000);
});
