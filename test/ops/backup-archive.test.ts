/**
 * On PostgreSQL a backup is a `pg_dump` custom-format archive unless `--portable` is given (README, "Backup
 * and restore"): `npm run backup` and `npm run restore` with the real pg_dump and pg_restore, run as an
 * operator runs them against a PostgreSQL database created for the test; and such an archive refused
 * by the embedded database.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPublicApp } from '../../src/app.ts';
import { libpqEnvironment } from '../../src/db/backup/pg-archive.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { migrate, migrationFiles } from '../../src/db/migrate.ts';
import { openContext } from '../../src/runtime.ts';
import { API_KEY, expectedAt, FIXTURES, REVOKED_KEY } from '../db/upgrade-fixtures.ts';
import { createDatabase } from '../helpers/database.ts';
import { client, testConfig } from '../helpers/server.ts';
import {
  ADMIN_URL,
  backupWorkspace,
  contents,
  LAST_MIGRATION,
  onPostgres,
  run,
  seed,
  tablesOf,
} from './backup-files.ts';

const { dir, cleanups, freshDatabase } = backupWorkspace();

describe.runIf(onPostgres)('a pg_dump custom-format archive (PostgreSQL)', () => {
  it('is what backup writes on PostgreSQL, and restores into an empty database with every row but the instance secret', async () => {
    const source = await freshDatabase('archive');
    const db = await source.open();
    const root = await seed(db);
    const before = await contents(db);
    await db.close();
    const file = join(dir, 'copy.dump');
    const backup = run('backup', file, source.env);
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`pg_dump custom format, schema ${LAST_MIGRATION}`);
    expect(backup.stderr).toMatch(/backing up \(pg_dump custom format\): \d+\/\d+ tables/);
    expect(existsSync(`${file}.partial`)).toBe(false);
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('PGDMP');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // the archive read back as SQL: the tables and their rows, not the root secret's row
    const sql = spawnSync('pg_restore', ['--file=-', file], { encoding: 'utf8' }).stdout;
    expect(sql).toContain('COPY public.projects');
    expect(sql).toContain('CREATE TABLE public.instance_secrets');
    expect(sql).not.toContain(root);
    // nor is DATABASE_URL's connection passed where another user of the machine could read it
    expect(backup.stderr).not.toContain('postgres://');

    const target = await freshDatabase('archive-target');
    const restore = run('restore', file, target.env);
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toContain(`(pg_dump custom format): schema ${LAST_MIGRATION}`);
    expect(restore.stdout).not.toContain('migrated forward');
    expect(restore.stderr).toMatch(/restoring \(pg_restore\): \d+ tables in/);
    const restored = await target.open();
    expect(await contents(restored)).toEqual(before);
    expect(await restored.query(`SELECT 1 FROM instance_secrets`)).toEqual([]);
    expect(await migrate(restored)).toEqual([]);
    await restored.close();

    // restoring again finds the database no longer empty, as for a portable copy
    const again = run('restore', file, target.env);
    expect(again.status).toBe(2);
    expect(again.stderr).toContain(
      'restore refused: the target database is not empty (it has tables); restore only into an empty database',
    );
  }, 120_000);

  it('an archive of a database left by an older release migrates forward on restore and reads back through the API', async () => {
    // built as test/db/upgrades.test.ts builds a released version's database: migrated a file at a time,
    // with the rows each version could first hold written in that version's columns
    const OLD = '047_failure_codes.sql';
    const files = migrationFiles();
    const source = await freshDatabase('archive-old');
    const db = await source.open();
    for (const file of files.slice(0, files.indexOf(OLD) + 1)) {
      await migrate(db, { until: file });
      const fixture = FIXTURES[file];
      if (fixture) await db.exec(fixture.sql);
    }
    await db.close();
    const file = join(dir, 'old.dump');
    const backup = run('backup', file, source.env);
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`schema ${OLD}`);

    const target = await freshDatabase('archive-old-target');
    const restore = run('restore', file, target.env);
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toContain(`schema ${OLD}`);
    expect(restore.stdout).toContain(`migrated forward through ${LAST_MIGRATION}`);
    expect(restore.stderr).toContain(`migrated ${files.length - files.indexOf(OLD) - 1}/`);
    const restored = await target.open();
    try {
      expect(await migrate(restored)).toEqual([]);
      const { config } = testConfig({
        DATABASE_URL: target.env.DATABASE_URL,
        PONTE_API_KEY_CACHE_TTL_MS: '0',
        PONTE_RATE_LIMIT_BURST: '1000000',
      });
      const ctx = await openContext(config, undefined, restored);
      const app = await buildPublicApp(ctx, 'sandbox');
      try {
        const api = client(app, API_KEY.key);
        const expected = expectedAt(files, OLD);
        expect(Object.keys(expected.transactions).length).toBeGreaterThan(0);
        const paths = {
          customers: '/customers',
          bankAccounts: '/bank-accounts',
          transactions: '/transactions',
          webhookEndpoints: '/webhook-endpoints',
        } as const;
        for (const kind of Object.keys(paths) as (keyof typeof paths)[]) {
          const list = await api.get(`${paths[kind]}?limit=50`);
          expect(list.statusCode, list.body).toBe(200);
          expect(
            list
              .json()
              .data.map((item: { id: string }) => item.id)
              .sort(),
            kind,
          ).toEqual(Object.keys(expected[kind]).sort());
          for (const [id, answer] of Object.entries(expected[kind])) {
            const one = await api.get(`${paths[kind]}/${id}`);
            expect(one.statusCode, `${paths[kind]}/${id}`).toBe(200);
            expect(one.json(), `${paths[kind]}/${id}`).toMatchObject(answer);
          }
        }
        expect((await client(app, REVOKED_KEY.key).get('/customers')).statusCode).toBe(401);
      } finally {
        await app.close();
        ctx.pix.close();
      }
    } finally {
      await restored.close();
    }
  }, 180_000);

  it('a cut or damaged archive restores nothing, with exit code 1', async () => {
    const source = await freshDatabase('archive-cut');
    const db = await source.open();
    await seed(db);
    await db.close();
    const file = join(dir, 'whole.dump');
    expect(run('backup', file, source.env).status).toBe(0);
    const whole = readFileSync(file);
    const target = await freshDatabase('archive-cut-target');

    // cut short: the archive does not read whole
    const cut = join(dir, 'cut.dump');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const short = run('restore', cut, target.env);
    expect(short.status).toBe(1);
    expect(short.stderr).toContain('cut short or damaged');
    expect(await tablesOf(target.open)).toEqual([]);

    // damaged in the last table's rows: the archive's list and version read, pg_restore stops half way
    // and its one transaction leaves nothing behind
    const damaged = join(dir, 'damaged.dump');
    const bytes = Buffer.from(whole);
    bytes.fill(0, bytes.length - 200);
    writeFileSync(damaged, bytes);
    const broken = run('restore', damaged, target.env);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('nothing was restored');
    expect(await tablesOf(target.open)).toEqual([]);

    // the whole archive still restores into that database, which stayed empty
    expect(run('restore', file, target.env).status).toBe(0);
  }, 120_000);

  it('a backup killed half way leaves no archive, and what it left is refused; one stopped leaves nothing', async () => {
    const source = await freshDatabase('archive-killed');
    const db = await source.open();
    await seed(db);
    await db.query(
      `INSERT INTO audit_log (id, actor, action, resource_type, after, created_at)
       SELECT gen_random_uuid(), 'operator', 'bulk', 'project', jsonb_build_object('pad', md5(n::text) || repeat('x', 200)), now()
         FROM generate_series(1, 200000) n`,
    );
    await db.close();
    const file = join(dir, 'killed.dump');
    // the command and its pg_dump in a process group of their own, killed together (as a container's
    // processes are) once pg_dump has begun writing rows
    const child = spawn('npx', ['tsx', 'scripts/backup.ts', file], {
      env: { ...process.env, ...source.env },
      detached: true,
    });
    let output = '';
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_, sig) => resolve(sig)),
    );
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk) => {
        output += chunk;
        if (/backing up \(pg_dump custom format\): [1-9]/.test(output)) resolve();
      }),
    );
    process.kill(-child.pid!, 'SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.partial`)).toBe(true);
    const target = await freshDatabase('archive-killed-target');
    const restore = run('restore', `${file}.partial`, target.env);
    expect(restore.status).toBe(1);
    expect(restore.stderr).toContain('cut short or damaged');
    expect(await tablesOf(target.open)).toEqual([]);

    // stopped with SIGTERM (a supervisor) rather than killed: it stops its pg_dump and removes what it wrote
    rmSync(`${file}.partial`);
    const stopped = spawn(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', file], {
      env: { ...process.env, ...source.env },
    });
    let said = '';
    const ended = new Promise<number | null>((resolve) => stopped.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) =>
      stopped.stderr.on('data', (chunk) => {
        said += chunk;
        if (/backing up \(pg_dump custom format\): [1-9]/.test(said)) resolve();
      }),
    );
    stopped.kill('SIGTERM');
    expect(await ended).toBe(143);
    expect(said).toContain('backup stopped by SIGTERM, nothing written');
    expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false);
  }, 120_000);

  it('an archive of a newer release than this one is refused, restoring nothing', async () => {
    const source = await freshDatabase('archive-newer');
    const db = await source.open();
    await migrate(db);
    // a migration this release does not have, as a later release would have recorded it
    await db.query(`INSERT INTO schema_migrations (name, checksum) VALUES ('999_later_release.sql', 'x')`);
    await db.close();
    const file = join(dir, 'newer.dump');
    expect(run('backup', file, source.env).status).toBe(0);
    const target = await freshDatabase('archive-newer-target');
    const restore = run('restore', file, target.env);
    expect(restore.status).toBe(1);
    expect(restore.stderr).toContain(
      'was taken at schema 999_later_release.sql, of a newer Ponte than this one',
    );
    expect(await tablesOf(target.open)).toEqual([]);
  }, 60_000);

  it('without pg_dump on PATH, refuses the backup and names the way out, leaving no file', async () => {
    const source = await freshDatabase('archive-no-pg-dump');
    const db = await source.open();
    await migrate(db);
    await db.close();
    const file = join(dir, 'no-pg-dump.dump');
    const refused = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', file], {
      env: { ...process.env, ...source.env, PATH: join(dir, 'no-programs-here') },
      encoding: 'utf8',
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(
      "backup refused, nothing written: pg_dump was not found on PATH: install PostgreSQL's client programs",
    );
    expect(refused.stderr).toContain('or take a portable copy with --portable');
    expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false);
  }, 60_000);

  it('refuses to back up a database that holds no Ponte schema, leaving no file', async () => {
    const empty = await freshDatabase('archive-nothing');
    const file = join(dir, 'nothing.dump');
    const refused = run('backup', file, empty.env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('backup refused, nothing written: this database holds no Ponte schema');
    expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false);
  }, 60_000);
});

describe('a pg_dump custom-format archive onto the embedded database', () => {
  it('is refused with exit code 1, telling to take a portable copy', async () => {
    // a PostgreSQL database's archive, whichever database this run uses
    const created = await createDatabase(ADMIN_URL, 'backup_test');
    cleanups.push(created.drop);
    const source = await connectDatabase({ databaseUrl: created.url, dataDir: '', poolSize: 1 });
    await seed(source);
    await source.close();
    const file = join(dir, 'for-embedded.dump');
    const backup = run('backup', file, { DATABASE_URL: created.url });
    expect(backup.status, backup.stderr).toBe(0);

    const dataDir = join(dir, 'embedded-target');
    const restore = run('restore', file, { DATABASE_URL: '', PONTE_DATA_DIR: dataDir });
    expect(restore.status).toBe(1);
    expect(restore.stderr).toContain('is a pg_dump custom-format archive');
    expect(restore.stderr).toContain('restores only onto PostgreSQL');
    expect(restore.stderr).toContain('npm run backup -- --portable FILE');
    expect(existsSync(dataDir)).toBe(false);

    // the portable copy of the same database restores there
    const portable = join(dir, 'for-embedded.ponte');
    expect(run('backup', ['--portable', portable], { DATABASE_URL: created.url }).status).toBe(0);
    const moved = run('restore', portable, { DATABASE_URL: '', PONTE_DATA_DIR: dataDir });
    expect(moved.status, moved.stderr).toBe(0);
    expect(await tablesOf(() => connectDatabase({ dataDir, poolSize: 1 }))).toContain('projects');
  }, 120_000);
});

describe('the connection pg_dump and pg_restore are given', () => {
  it('is DATABASE_URL taken apart into libpq environment variables, the password decoded into PGPASSWORD', () => {
    expect(
      libpqEnvironment(
        'postgres://ponte%40ops:s3cr%3At@db.example.com:6543/ponte?sslmode=verify-full&ssl=true',
      ),
    ).toEqual({
      PGHOST: 'db.example.com',
      PGPORT: '6543',
      PGUSER: 'ponte@ops',
      PGPASSWORD: 's3cr:t',
      PGDATABASE: 'ponte',
      PGSSLMODE: 'verify-full',
    });
    // a socket directory given as `host`, and node-postgres's ssl=true read as TLS required
    expect(libpqEnvironment('postgresql://postgres@/ponte?host=/var/run/postgresql&ssl=true')).toEqual({
      PGHOST: '/var/run/postgresql',
      PGUSER: 'postgres',
      PGDATABASE: 'ponte',
      PGSSLMODE: 'require',
    });
  });
});
