/**
 * Sealed secrets stay sealed in a copy (README, "Backup and restore"): a backup of a database holding a
 * webhook endpoint's signing secret, an API key and the generated instance secret contains none of them
 * in plain text (on PostgreSQL the copy is the default pg_dump archive, read back with pg_restore). Restored with the instance secret kept apart (`--instance-secret`), the API key
 * authenticates and deliveries are signed with the endpoint's same secret; restored without it, every row
 * is there but Ponte refuses to start (the wallets' sealed HD seed does not open).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.ts';
import { createDatabase, pgliteCopy } from '../helpers/database.ts';
import { individualBody, validCpf } from '../helpers/factories.ts';
import { startReceiver } from '../webhooks/support.ts';
import { sandboxClient } from './backup-support.ts';
import { type PonteProcess, spawnPonte, stopPonte } from './ponte-process.ts';

const ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const onPostgres = Boolean(inject('testDatabaseUrl'));
const dir = mkdtempSync(join(tmpdir(), 'ponte-backup-secrets-'));
const cleanups: (() => Promise<void>)[] = [];
const running: PonteProcess[] = [];

afterAll(async () => {
  for (const ponte of running) await stopPonte(ponte);
  for (const cleanup of cleanups.splice(0)) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** A database of the test's own, migrated (embedded: a copy of the run's migrated one). */
async function ownDatabase(name: string, migrated: boolean): Promise<NodeJS.ProcessEnv> {
  if (onPostgres) {
    const created = await createDatabase(ADMIN_URL, 'backup_secrets');
    cleanups.push(created.drop);
    return { DATABASE_URL: created.url };
  }
  const dataDir = join(dir, name);
  if (migrated) await (await pgliteCopy(dataDir))?.close();
  return { PONTE_DATA_DIR: dataDir };
}

async function start(database: NodeJS.ProcessEnv) {
  const ponte = await spawnPonte({
    ...database,
    PONTE_SANDBOX_WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    PONTE_WEBHOOK_DISPATCH_INTERVAL_MS: '20',
  });
  running.push(ponte);
  return ponte;
}

function run(args: string[], env: NodeJS.ProcessEnv) {
  const base: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete base.DATABASE_URL;
  const done = spawnSync('npx', ['tsx', ...args], { env: base, encoding: 'utf8' });
  expect(done.status, done.stderr).toBe(0);
  return done;
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (const started = Date.now(); ; ) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > 30_000) throw new Error(`not reached: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('sealed secrets in a backup', () => {
  it('stay sealed in the copy, and open again only with the instance secret kept apart', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const source = await ownDatabase('source', true);
    let ponte = await start(source);
    const api = await sandboxClient(ponte);
    const endpoint = (await api('POST', '/webhook-endpoints', { url: receiver.url })) as unknown as {
      id: string;
      secret: string;
    };
    const customer = await api('POST', '/customers', individualBody({ taxId: validCpf('5') }));
    await poll(
      async () => receiver.received.length,
      (n) => n > 0,
    );
    const first = receiver.received[0]!;
    expect(
      new Webhook(endpoint.secret).verify(first.body, first.headers as Record<string, string>),
    ).toBeTruthy();

    // the instance secret is kept apart; the copy is taken (embedded: through the running server)
    const secretFile = join(dir, 'instance.secret');
    const file = join(dir, 'secrets.ponte');
    await stopPonte(ponte);
    run(['scripts/backup.ts', '--instance-secret', secretFile], source);
    const instanceSecret = readFileSync(secretFile, 'utf8').trim();
    ponte = await start(source);
    run(
      ['scripts/backup.ts', file],
      onPostgres
        ? source
        : { ...source, PONTE_OPERATOR_URL: ponte.urls.operator, PONTE_OPERATOR_TOKEN: ponte.operatorToken },
    );
    await stopPonte(ponte);
    // on PostgreSQL the copy is a pg_dump archive (compressed): what it holds is read back as SQL text
    const bytes = onPostgres
      ? Buffer.from(spawnSync('pg_restore', ['--file=-', file], { encoding: 'utf8' }).stdout)
      : readFileSync(file);
    if (onPostgres) expect(bytes.toString('utf8')).toContain('COPY public.customers');
    for (const secret of [endpoint.secret, endpoint.secret.slice('whsec_'.length), api.key, instanceSecret])
      expect(bytes.includes(secret), `the copy holds ${secret.slice(0, 10)}…`).toBe(false);

    // restored with the instance secret: the key authenticates, deliveries are signed with the same secret
    const kept = await ownDatabase('kept', false);
    run(['scripts/restore.ts', file, '--instance-secret', secretFile], kept);
    ponte = await start(kept);
    const again = await fetch(`${ponte.urls.sandbox}/customers/${customer.id}`, {
      headers: { authorization: `Bearer ${api.key}` },
    });
    expect(again.status).toBe(200);
    const seen = receiver.received.length;
    const created = await fetch(`${ponte.urls.sandbox}/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(individualBody({ taxId: validCpf('5') })),
    });
    expect(created.status).toBe(201);
    await poll(
      async () => receiver.received.length,
      (n) => n > seen,
    );
    const later = receiver.received.at(-1)!;
    expect(
      new Webhook(endpoint.secret).verify(later.body, later.headers as Record<string, string>),
    ).toBeTruthy();
    await stopPonte(ponte);

    // restored without it: the rows are all there, but Ponte refuses to start, since the wallets' HD
    // seed is sealed with the lost key (it would not derive the customers' addresses again)
    const lost = await ownDatabase('lost', false);
    run(['scripts/restore.ts', file], lost);
    const db = await connectDatabase({
      databaseUrl: lost.DATABASE_URL,
      dataDir: lost.PONTE_DATA_DIR ?? '',
      poolSize: 1,
    });
    try {
      expect(await db.query(`SELECT id FROM customers WHERE id = $1`, [customer.id])).toEqual([
        { id: customer.id },
      ]);
      expect(await db.query(`SELECT 1 FROM instance_secrets`)).toEqual([]);
    } finally {
      await db.close();
    }
    await expect(start(lost)).rejects.toThrow(/failed to start/);
  }, 600_000);
});
