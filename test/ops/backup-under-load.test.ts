/**
 * A backup taken while the real server (`npm start`) accepts writes: customers created and on-ramps paid
 * (each deposit books ledger journals) by several clients at once, before and during `npm run backup`.
 * The copy, restored into an empty database, has every ledger journal zero-sum in each currency, no
 * journal without its entries, and every write acknowledged before the backup began.
 * On PostgreSQL two copies are taken at that moment, both by reading the server's database: the default
 * `pg_dump` custom-format archive (one pg_dump snapshot) and the `--portable` copy (one REPEATABLE READ
 * transaction); the archive, restored with the instance secret kept apart, serves the acknowledged writes
 * again through the API of a Ponte started on it. Embedded, the running server takes the copy
 * (`GET /operator/backup`) because it holds the data directory.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.ts';
import type { Database } from '../../src/db/types.ts';
import { createDatabase, pgliteCopy } from '../helpers/database.ts';
import { individualBody, validCpf } from '../helpers/factories.ts';
import { sandboxClient } from './backup-support.ts';
import { type PonteProcess, spawnPonte, stopPonte } from './ponte-process.ts';

const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const dir = mkdtempSync(join(tmpdir(), 'ponte-backup-load-'));
const cleanups: (() => Promise<void>)[] = [];
let ponte: PonteProcess | undefined;

afterAll(async () => {
  await stopPonte(ponte);
  for (const cleanup of cleanups.splice(0)) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

type Api = Awaited<ReturnType<typeof sandboxClient>>;

async function approved(api: Api): Promise<string> {
  const customer = await api('POST', '/customers', individualBody({ taxId: validCpf('5') }));
  for (;;) {
    const read = (await api('GET', `/customers/${customer.id}`)) as unknown as {
      verification: { status: string };
    };
    if (read.verification.status === 'APPROVED') return customer.id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every write the clients saw acknowledged, with the moment of its acknowledgement. */
type Acknowledged = { customers: [string, number][]; onRamps: [string, number][] };

/** Clients writing until `until` resolves: each creates a customer, then pays an on-ramp of its own. */
async function writeUntil(api: Api, payers: string[], until: Promise<unknown>, seen: Acknowledged) {
  let stop = false;
  until.finally(() => {
    stop = true;
  });
  const client = async (n: number) => {
    for (let i = 0; !stop; i++) {
      const customer = await api('POST', '/customers', individualBody({ taxId: validCpf('5') }));
      seen.customers.push([customer.id, performance.now()]);
      const onRamp = await api('POST', '/transactions/on-ramp', {
        customerId: payers[(n + i) % payers.length],
        currency: 'BRL',
        amount: '10.00',
        targetCurrency: 'USDC',
      });
      await api('POST', `/sandbox/transactions/${onRamp.id}/deposit`);
      seen.onRamps.push([onRamp.id, performance.now()]);
    }
  };
  await Promise.all([0, 1, 2, 3].map(client));
}

/** `npm run backup|restore -- ARGS`; a string is the file alone. */
function runScript(script: 'backup' | 'restore', args: string | string[], env: NodeJS.ProcessEnv) {
  const base: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete base.DATABASE_URL;
  return spawn('npx', ['tsx', `scripts/${script}.ts`, ...[args].flat()], { env: base });
}

function finished(child: ReturnType<typeof spawn>): Promise<{ code: number | null; output: string }> {
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/** Ledger checks on the restored copy, and the acknowledged writes it must hold. */
async function checkRestored(db: Database, acknowledged: Acknowledged) {
  expect(
    await db.query(
      `SELECT journal_id, currency, sum(amount)::text AS total FROM ledger_entries
        GROUP BY journal_id, currency HAVING sum(amount) <> 0`,
    ),
  ).toEqual([]);
  expect(
    await db.query(
      `SELECT currency, sum(amount)::text FROM ledger_entries GROUP BY currency HAVING sum(amount) <> 0`,
    ),
  ).toEqual([]);
  expect(
    await db.query(
      `SELECT j.id FROM ledger_journals j WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.journal_id = j.id)`,
    ),
  ).toEqual([]);
  const customers = acknowledged.customers.map(([id]) => id);
  const [found] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM customers WHERE id = ANY($1::uuid[])`,
    [customers],
  );
  expect(found!.n).toBe(customers.length);
  const onRamps = acknowledged.onRamps.map(([id]) => id);
  const booked = await db.query<{ id: string }>(
    `SELECT t.id FROM transactions t WHERE t.id = ANY($1::uuid[])
        AND EXISTS (SELECT 1 FROM ledger_journals j WHERE j.transaction_id = t.id)`,
    [onRamps],
  );
  expect(booked.length).toBe(onRamps.length);
}

describe('a backup taken under write load', () => {
  it('restores with every ledger zero-sum and every write acknowledged before it began', async () => {
    const databaseUrl = inject('testDatabaseUrl');
    const dataDir = join(dir, 'server');
    if (!databaseUrl) await (await pgliteCopy(dataDir))?.close();
    ponte = await spawnPonte(databaseUrl ? {} : { PONTE_DATA_DIR: dataDir });
    const api = await sandboxClient(ponte);
    const payers = await Promise.all([1, 2, 3, 4].map(() => approved(api)));

    const seen: Acknowledged = { customers: [], onRamps: [] };
    let began = 0;
    let backup!: Promise<{ code: number | null; output: string }>;
    let portableBackup: Promise<{ code: number | null; output: string }> | undefined;
    const portableFile = join(dir, 'under-load-portable.ponte');
    const started = new Promise<void>((resolve) => {
      const wait = setInterval(() => {
        if (seen.onRamps.length < 20) return;
        clearInterval(wait);
        resolve();
      }, 20);
    });
    const file = join(dir, 'under-load.ponte');
    const load = writeUntil(
      api,
      payers,
      started.then(() => {
        began = performance.now();
        if (databaseUrl)
          portableBackup = finished(
            runScript('backup', ['--portable', portableFile], { DATABASE_URL: databaseUrl }),
          );
        backup = finished(
          runScript(
            'backup',
            file,
            databaseUrl
              ? { DATABASE_URL: databaseUrl }
              : {
                  PONTE_DATA_DIR: dataDir,
                  PONTE_OPERATOR_URL: ponte!.urls.operator,
                  PONTE_OPERATOR_TOKEN: ponte!.operatorToken,
                },
          ),
        );
        return Promise.all([backup, portableBackup]);
      }),
      seen,
    );
    await load;
    const taken = await backup;
    expect(taken.code, taken.output).toBe(0);
    if (!databaseUrl) expect(taken.output).toContain('through the running Ponte');
    else expect(taken.output).toContain('pg_dump custom format');
    if (portableBackup) {
      const portable = await portableBackup;
      expect(portable.code, portable.output).toBe(0);
    }
    const secretFile = join(dir, 'instance.secret');
    if (databaseUrl) {
      const kept = await finished(
        runScript('backup', ['--instance-secret', secretFile], { DATABASE_URL: databaseUrl }),
      );
      expect(kept.code, kept.output).toBe(0);
    }
    const before: Acknowledged = {
      customers: seen.customers.filter(([, at]) => at < began),
      onRamps: seen.onRamps.filter(([, at]) => at < began),
    };
    // the clients went on writing while the copy was taken
    expect(seen.onRamps.length).toBeGreaterThan(before.onRamps.length);
    if (!databaseUrl) {
      // embedded, a running Ponte that does not know the operator refuses the copy, and nothing is written
      const refusedFile = join(dir, 'refused.ponte');
      const refused = await finished(
        runScript('backup', refusedFile, {
          PONTE_DATA_DIR: dataDir,
          PONTE_OPERATOR_URL: ponte.urls.operator,
          PONTE_OPERATOR_TOKEN: 'not-the-operator-token-of-this-ponte-0123456789',
        }),
      );
      expect(refused.code).toBe(1);
      expect(refused.output).toContain('set PONTE_OPERATOR_TOKEN to an operator token');
      expect(existsSync(refusedFile) || existsSync(`${refusedFile}.partial`)).toBe(false);
    }
    await stopPonte(ponte);

    let target: { env: NodeJS.ProcessEnv; open(): Promise<Database> };
    const emptyPostgres = async () => {
      const created = await createDatabase(ADMIN_URL, 'backup_load');
      cleanups.push(created.drop);
      return {
        env: { DATABASE_URL: created.url },
        open: () => connectDatabase({ databaseUrl: created.url, dataDir: '', poolSize: 1 }),
      };
    };
    if (databaseUrl) {
      target = await emptyPostgres();
      // the portable copy taken at the same moment holds the same
      const portableTarget = await emptyPostgres();
      const portable = await finished(runScript('restore', portableFile, portableTarget.env));
      expect(portable.code, portable.output).toBe(0);
      const db = await portableTarget.open();
      try {
        await checkRestored(db, before);
      } finally {
        await db.close();
      }
    } else {
      const restoredDir = join(dir, 'restored');
      target = {
        env: { PONTE_DATA_DIR: restoredDir },
        open: () => connectDatabase({ dataDir: restoredDir, poolSize: 1 }),
      };
    }
    const restored = await finished(
      runScript('restore', databaseUrl ? [file, '--instance-secret', secretFile] : file, target.env),
    );
    expect(restored.code, restored.output).toBe(0);
    const db = await target.open();
    try {
      await checkRestored(db, before);
    } finally {
      await db.close();
    }
    if (!databaseUrl) return;
    // a Ponte started on the restored archive serves every acknowledged write with the same API key
    ponte = await spawnPonte(target.env);
    const read = (path: string) =>
      fetch(`${ponte!.urls.sandbox}${path}`, { headers: { authorization: `Bearer ${api.key}` } });
    for (const [id] of before.customers) {
      const response = await read(`/customers/${id}`);
      expect(response.status, `customer ${id}`).toBe(200);
      expect(((await response.json()) as { id: string }).id).toBe(id);
    }
    for (const [id] of before.onRamps) {
      const response = await read(`/transactions/${id}`);
      expect(response.status, `on-ramp ${id}`).toBe(200);
      expect(((await response.json()) as { id: string }).id).toBe(id);
    }
  }, 600_000);
});
