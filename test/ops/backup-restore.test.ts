/**
 * `npm run backup` and `npm run restore`, run as an operator runs them, against the database the run uses
 * (the embedded one in a data directory of the test's own, or a PostgreSQL database created for the test),
 * in the portable format (`--portable`, README "Backup and restore"). The pg_dump archive PostgreSQL backs
 * up to by default is tested in backup-archive.test.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectDatabase } from '../../src/db/connect.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createDatabase } from '../helpers/database.ts';
import { ADMIN_URL, backupWorkspace, contents, run, seed } from './backup-files.ts';

const { dir, cleanups, freshDatabase } = backupWorkspace();

describe('backup and restore', () => {
  it('restores a copy into an empty database with every row, leaving the instance secret out', async () => {
    const source = await freshDatabase('source');
    const db = await source.open();
    const root = await seed(db);
    const before = await contents(db);
    await db.close();
    const file = join(dir, 'copy.ponte');
    const backup = run('backup', ['--portable', file], source.env);
    expect(backup.status, backup.stderr).toBe(0);
    expect(existsSync(`${file}.partial`)).toBe(false);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(root);
    expect(text).not.toContain('instance_secrets');

    const target = await freshDatabase('target');
    const restore = run('restore', file, target.env);
    expect(restore.status, restore.stderr).toBe(0);
    const restored = await target.open();
    expect(await contents(restored)).toEqual(before);
    expect(await restored.query(`SELECT 1 FROM instance_secrets`)).toEqual([]);
    await restored.close();

    // restoring again finds the database no longer empty
    const again = run('restore', file, target.env);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain('not empty');
  }, 120_000);

  it('restores a copy taken at an older schema version and migrates it forward', async () => {
    const source = await freshDatabase('old');
    const db = await source.open();
    await seed(db, '010_money_out.sql');
    await db.close();
    const file = join(dir, 'old.ponte');
    expect(run('backup', ['--portable', file], source.env).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('"schemaVersion":"010_money_out.sql"');

    const target = await freshDatabase('old-target');
    const restore = run('restore', file, target.env);
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toContain('migrated forward');
    const restored = await target.open();
    expect(await migrate(restored)).toEqual([]);
    expect(await restored.query(`SELECT count(*)::int AS n FROM projects`)).toEqual([{ n: 300 }]);
    await restored.close();
  }, 120_000);

  it('refuses a copy cut short or changed, writing nothing', async () => {
    const source = await freshDatabase('cut');
    const db = await source.open();
    await seed(db);
    await db.close();
    const file = join(dir, 'whole.ponte');
    expect(run('backup', ['--portable', file], source.env).status).toBe(0);
    const whole = readFileSync(file, 'utf8');

    const cut = join(dir, 'cut.ponte');
    writeFileSync(cut, whole.slice(0, Math.floor(whole.length / 2)));
    const target = await freshDatabase('cut-target');
    const short = run('restore', cut, target.env);
    expect(short.status).toBe(1);
    expect(short.stderr).toContain('incomplete');

    const changed = join(dir, 'changed.ponte');
    writeFileSync(changed, whole.replace('project 1', 'project X'));
    const corrupt = run('restore', changed, target.env);
    expect(corrupt.status).toBe(1);
    expect(corrupt.stderr).toContain('checksum');
    rmSync(cut);
  }, 120_000);

  it('a backup killed half way leaves no copy, and what it left is refused', async () => {
    const source = await freshDatabase('killed');
    const db = await source.open();
    await seed(db);
    await db.query(
      `INSERT INTO audit_log (id, actor, action, resource_type, after, created_at)
       SELECT gen_random_uuid(), 'operator', 'bulk', 'project', jsonb_build_object('pad', repeat('x', 200)), now()
         FROM generate_series(1, 60000)`,
    );
    await db.close();
    const file = join(dir, 'killed.ponte');
    const env = { ...process.env, ...source.env };
    if (!source.env.DATABASE_URL) delete env.DATABASE_URL;
    // killed by its own hook right after its first write to the copy
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        './test/ops/kill-mid-backup.ts',
        'scripts/backup.ts',
        '--portable',
        file,
      ],
      { env },
    );
    const [, signal] = await new Promise<[number | null, string | null]>((resolve) =>
      child.once('exit', (code, sig) => resolve([code, sig])),
    );
    expect(signal).toBe('SIGKILL');
    expect(statSync(`${file}.partial`).size).toBeGreaterThan(0);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.partial`)).toBe(true);
    const target = await freshDatabase('killed-target');
    const restore = run('restore', `${file}.partial`, target.env);
    expect(restore.status).toBe(1);
    expect(restore.stderr).toContain('incomplete');
  }, 120_000);

  it('refuses to back up a database that holds no Ponte schema, leaving no file', () => {
    const file = join(dir, 'nothing.ponte');
    const refused = run('backup', file, { DATABASE_URL: '', PONTE_DATA_DIR: join(dir, 'never-started') });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('backup refused, nothing written: this database holds no Ponte schema');
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.partial`)).toBe(false);
  }, 60_000);

  it('restores a copy of the embedded database onto PostgreSQL', async () => {
    const dataDir = join(dir, 'embedded-source');
    const embedded = await connectDatabase({ dataDir, poolSize: 1 });
    await seed(embedded);
    const before = await contents(embedded);
    await embedded.close();
    const file = join(dir, 'embedded.ponte');
    const backup = run('backup', file, { DATABASE_URL: '', PONTE_DATA_DIR: dataDir });
    expect(backup.status, backup.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('"source":"pglite"');

    const created = await createDatabase(ADMIN_URL, 'backup_test');
    cleanups.push(created.drop);
    const restore = run('restore', file, { DATABASE_URL: created.url });
    expect(restore.status, restore.stderr).toBe(0);
    const restored = await connectDatabase({ databaseUrl: created.url, dataDir: '', poolSize: 1 });
    expect(await contents(restored)).toEqual(before);
    await restored.close();
  }, 120_000);
});
