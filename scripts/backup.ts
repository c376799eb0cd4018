/**
 * `npm run backup -- [--portable] FILE`: a consistent copy of the configured database, taken while Ponte
 * runs (README, "Backup and restore").
 *
 * PostgreSQL (DATABASE_URL): by default a `pg_dump --format=custom` archive, written by the `pg_dump`
 * found on PATH (`src/db/backup/pg-archive.ts`): PostgreSQL's own format, one snapshot of the whole
 * database. With `--portable`, the format of `src/db/backup/format.ts` instead, which this command reads
 * itself, every table in one REPEATABLE READ, READ ONLY transaction (`src/db/backup/copy.ts`): the format
 * that restores onto the embedded database as well.
 * Embedded (PONTE_DATA_DIR): always the portable format (pg_dump cannot read PGlite). PGlite's data
 * directory can be opened by one process only, so when a Ponte answers at PONTE_OPERATOR_URL the running
 * process takes the copy itself (`GET /operator/backup`, with PONTE_OPERATOR_TOKEN) and this command
 * writes what it streams; when nothing answers there, Ponte is stopped and the command opens the data
 * directory directly.
 *
 * The file is written as FILE.partial, fsynced, then renamed to FILE: a backup killed half way leaves at
 * most FILE.partial, which restore refuses (a portable one has no manifest; an archive is cut short). A
 * copy streamed by the server is checked (manifest and checksum) before it is renamed; an archive is
 * renamed only when pg_dump exited 0 and its schema version reads back from it.
 *
 * `npm run backup -- --instance-secret SECRETFILE` writes instead the instance's generated root secret (never
 * in a copy), to be kept apart from the copies and given to `npm run restore -- FILE --instance-secret
 * SECRETFILE`. It reads the database directly: PostgreSQL, or the embedded one with Ponte stopped.
 */
import type { ChildProcess } from 'node:child_process';
import {
  closeSync,
  fstatSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { loadConfig } from '../src/config.ts';
import { copyDatabase, lastMigration, NothingToBackUp } from '../src/db/backup/copy.ts';
import { BadBackupFile, checkBackupFile } from '../src/db/backup/file.ts';
import type { Manifest } from '../src/db/backup/format.ts';
import { readInstanceSecret } from '../src/db/backup/load.ts';
import { ArchiveFailed, archiveSchemaVersion, dumpArchive } from '../src/db/backup/pg-archive.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { progressLine } from '../src/lib/progress.ts';

if (process.argv[2] === '--instance-secret') await writeInstanceSecret(process.argv[3]);
const args = process.argv.slice(2);
const portable = args.includes('--portable');
const [file, ...extra] = args.filter((arg) => arg !== '--portable');
if (!file || extra.length || file.startsWith('--')) {
  process.stderr.write('usage: npm run backup -- [--portable] FILE\n');
  process.exit(2);
}

/** Why the running Ponte did not give a copy, said in a line. */
class Refused extends Error {}

const config = loadConfig();
const partial = `${file}.partial`;
const fd = openSync(partial, 'w', 0o600);
const write = (chunk: Buffer | Uint8Array) => {
  writeSync(fd, chunk);
};

try {
  let summary: string;
  if (config.databaseUrl && !portable) summary = await archiveHere(config.databaseUrl);
  else {
    const manifest = config.databaseUrl
      ? await copyHere()
      : ((await copyByRunningPonte()) ?? (await copyHere()));
    summary = `schema ${manifest.schemaVersion}, ${manifest.rows} rows`;
  }
  fsyncSync(fd);
  closeSync(fd);
  renameSync(partial, file);
  process.stdout.write(`backup written to ${file}: ${summary}\n`);
} catch (error) {
  if (
    !(
      error instanceof NothingToBackUp ||
      error instanceof BadBackupFile ||
      error instanceof Refused ||
      error instanceof ArchiveFailed
    )
  )
    throw error;
  closeSync(fd);
  rmSync(partial, { force: true });
  process.stderr.write(`backup refused, nothing written: ${error.message}\n`);
  process.exitCode = 1;
}

async function copyHere(): Promise<Manifest> {
  const db = await connectDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
  try {
    const progress = progressLine(process.stderr, 'backing up', 'tables');
    const manifest = await copyDatabase(db, write, progress.update);
    progress.finish(`${manifest.rows} rows`);
    return manifest;
  } finally {
    await db.close();
  }
}

/**
 * PostgreSQL's custom-format archive, written into FILE.partial by pg_dump. The database is checked to
 * hold a Ponte schema first, and its tables counted for the progress line; the schema version printed is
 * read back from the archive once pg_dump is done (the archive is the database as of pg_dump's snapshot).
 */
async function archiveHere(databaseUrl: string): Promise<string> {
  const db = await connectDatabase({ databaseUrl, dataDir: '', poolSize: 1 });
  let tables: number;
  try {
    await lastMigration(db);
    // instance_secrets is dumped without its rows
    const [counted] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> 'instance_secrets'`,
    );
    tables = counted?.n ?? 0;
  } finally {
    await db.close();
  }
  const progress = progressLine(process.stderr, 'backing up (pg_dump custom format)', 'tables');
  let dumping: ChildProcess | undefined;
  // stopped by an operator (Ctrl-C) or a supervisor: pg_dump is stopped too and nothing is left behind
  const stop = (signal: NodeJS.Signals) => {
    const leave = () => {
      rmSync(partial, { force: true });
      process.stderr.write(`backup stopped by ${signal}, nothing written\n`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    if (!dumping || dumping.exitCode !== null || dumping.signalCode !== null) return leave();
    dumping.once('exit', leave);
    dumping.kill('SIGTERM');
    setTimeout(leave, 5_000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await dumpArchive(
      databaseUrl,
      partial,
      (done) => progress.update(done, Math.max(done, tables)),
      (child) => {
        dumping = child;
      },
    );
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  fsyncSync(fd);
  const schemaVersion = await archiveSchemaVersion(partial);
  const size = (fstatSync(fd).size / 2 ** 20).toFixed(1);
  progress.finish(`${tables} tables, ${size} MB`);
  return `pg_dump custom format, schema ${schemaVersion}, ${tables} tables, ${size} MB`;
}

/** The copy taken by the Ponte answering at PONTE_OPERATOR_URL; undefined when none answers there. */
async function copyByRunningPonte(): Promise<Manifest | undefined> {
  const url = new URL('/operator/backup', config.operatorUrl);
  let response: Response;
  try {
    response = await fetch(url, {
      headers: config.operatorToken ? { authorization: `Bearer ${config.operatorToken}` } : {},
    });
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') return undefined;
    throw error;
  }
  if (response.status === 401)
    throw new Refused(
      `Ponte is running (it answers at ${config.operatorUrl.origin}) and holds the embedded database: set PONTE_OPERATOR_TOKEN to an operator token so that it takes the copy`,
    );
  if (response.status !== 200 || !response.body)
    throw new Refused(
      `the running Ponte at ${config.operatorUrl.origin} answered ${response.status}: ${await response.text()}`,
    );
  process.stderr.write(`backing up through the running Ponte at ${config.operatorUrl.origin}\n`);
  let bytes = 0;
  try {
    for await (const chunk of response.body) {
      write(chunk);
      bytes += chunk.length;
    }
  } catch (error) {
    throw new Refused(
      `the running Ponte stopped sending the copy after ${bytes} bytes: ${(error as Error).message}`,
    );
  }
  fsyncSync(fd);
  const { manifest } = await checkBackupFile(partial).catch((error: unknown) => {
    throw error instanceof BadBackupFile
      ? new BadBackupFile(
          `the copy streamed by the running Ponte is not whole (${bytes} bytes): ${error.message}`,
        )
      : error;
  });
  return manifest;
}

async function writeInstanceSecret(path: string | undefined): Promise<never> {
  if (!path) {
    process.stderr.write('usage: npm run backup -- --instance-secret SECRETFILE\n');
    process.exit(2);
  }
  const config = loadConfig();
  if (config.instanceSecret) {
    process.stderr.write(
      'PONTE_INSTANCE_SECRET is set: that is the instance secret, keep it where it is set\n',
    );
    process.exit(1);
  }
  const db = await connectDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
  const value = await readInstanceSecret(db).finally(() => db.close());
  if (!value) {
    process.stderr.write('this database holds no instance secret (has Ponte ever started on it?)\n');
    process.exit(1);
  }
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  process.stdout.write(`instance secret written to ${path}: keep it apart from the backups\n`);
  process.exit(0);
}
