import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInstanceKeys } from '../../src/db/instance-secrets.ts';
import { connectPostgres } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/types.ts';
import { deriveInstanceKeys } from '../../src/lib/instance-keys.ts';
import { ownDatabase, pgliteCopy, type TestDatabase } from '../helpers/database.ts';

let db: Database;
let own: TestDatabase | null = null;

beforeAll(async () => {
  own = await ownDatabase('ponte_instance');
  db = own ? connectPostgres(own.url, { max: 2 }) : (await pgliteCopy())!;
});
afterAll(async () => {
  await db?.close();
  await own?.drop();
});

describe('instance keys', () => {
  it('derive from PONTE_INSTANCE_SECRET when set: one key per purpose, the same on every load', async () => {
    const keys = await loadInstanceKeys(db, 'configured secret', new Date());
    expect(keys).toEqual(deriveInstanceKeys(Buffer.from('configured secret', 'utf8')));
    expect(keys.linkSigning).toEqual(
      createHmac('sha256', 'configured secret').update('verification-link').digest(),
    );
    expect(keys.encryption).toEqual(
      createHmac('sha256', 'configured secret').update('secret-encryption').digest(),
    );
    expect(keys.encryption.equals(keys.linkSigning)).toBe(false);
    expect(await db.query('SELECT name FROM instance_secrets')).toEqual([]);
  });

  it('otherwise derive from a root generated once and shared through the database', async () => {
    const [first, second] = await Promise.all([
      loadInstanceKeys(db, undefined, new Date()),
      loadInstanceKeys(db, undefined, new Date()),
    ]);
    expect(second).toEqual(first);
    expect(await loadInstanceKeys(db, undefined, new Date())).toEqual(first);
    const rows = await db.query<{ value: string }>('SELECT value FROM instance_secrets');
    expect(rows).toHaveLength(1);
    expect(first).toEqual(deriveInstanceKeys(Buffer.from(rows[0]!.value, 'base64url')));
    expect(first).not.toEqual(await loadInstanceKeys(db, 'configured secret', new Date()));
  });
});
