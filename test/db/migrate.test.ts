import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMER_NAMES, migrate, migrationFiles } from '../../src/db/migrate.ts';
import { connectPglite } from '../../src/db/pglite.ts';
import { connectPostgres } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/types.ts';
import { createDatabase, type TestDatabase } from '../helpers/database.ts';
import { testConfig } from '../helpers/server.ts';

const DIR = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
const formerName = (file: string) => FORMER_NAMES[file] ?? file;

let db: Database;
let own: TestDatabase | null = null;

beforeAll(async () => {
  const { config } = testConfig();
  if (config.databaseUrl) {
    own = await createDatabase(config.databaseUrl, 'ponte_migrate');
    db = connectPostgres(own.url, { max: 2 });
  } else {
    db = await connectPglite('memory://');
  }
});
afterAll(async () => {
  await db?.close();
  await own?.drop();
});

describe('migrations', () => {
  it('apply in one unambiguous order: no two files share a version', () => {
    const files = migrationFiles();
    expect(files.length).toBe(readdirSync(DIR).filter((name) => name.endsWith('.sql')).length);
    expect(files.indexOf('002a_compliance.sql')).toBeLessThan(files.indexOf('002b_limit_requests.sql'));
    expect(() => migrationFiles(['001_a.sql', '002_b.sql', '002_c.sql'])).toThrow(/share the version 002/);
  });

  it('upgrade a database migrated under the former file names without applying anything twice', async () => {
    // What a database migrated before the renaming holds: every file applied, recorded by its old name.
    await db.transaction(async (tx) => {
      await tx.query(
        'CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      for (const file of migrationFiles()) {
        await tx.exec(readFileSync(DIR + file, 'utf8'));
        await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [formerName(file)]);
      }
    });
    expect(await migrate(db)).toEqual([]);
    const recorded = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(recorded.map((row) => row.name)).toEqual(migrationFiles());
    expect(await migrate(db)).toEqual([]);
  });

  it('compress the request log bodies with LZ4 on PostgreSQL, and keep the default where LZ4 is missing', async () => {
    const columns = await db.query<{ attname: string; attcompression: string }>(
      `SELECT attname, attcompression FROM pg_attribute
        WHERE attrelid = 'request_log'::regclass AND attname IN ('request_body', 'response_body')
        ORDER BY attname`,
    );
    // 'l' is LZ4; '' the server's default (pglz): the embedded database is built without LZ4
    const expected = testConfig().config.databaseUrl ? 'l' : '';
    expect(columns).toEqual([
      { attname: 'request_body', attcompression: expected },
      { attname: 'response_body', attcompression: expected },
    ]);
  });

  it('refuse to start when an applied migration differs from its file, naming it', async () => {
    const [row] = await db.query<{ checksum: string }>(
      "SELECT checksum FROM schema_migrations WHERE name = '001_core.sql'",
    );
    expect(row?.checksum).toMatch(/^[0-9a-f]{64}$/);
    await db.query("UPDATE schema_migrations SET checksum = $1 WHERE name = '001_core.sql'", [
      '0'.repeat(64),
    ]);
    await expect(migrate(db)).rejects.toThrow(
      /migration 001_core\.sql differs from the one this database applied/,
    );
    await db.query("UPDATE schema_migrations SET checksum = $1 WHERE name = '001_core.sql'", [row!.checksum]);
    expect(await migrate(db)).toEqual([]);
  });
});
