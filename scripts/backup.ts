/**
 * `npm run backup -- FILE`: a consistent copy of the configured database in the format of
 * `src/db/backup/format.ts`, taken while Ponte runs.
 *
 * PostgreSQL (DATABASE_URL): this command reads the database itself, every table in one REPEATABLE READ,
 * READ ONLY transaction (`src/db/backup/copy.ts`).
 * Embedded (PONTE_DATA_DIR): PGlite's data directory can be opened by one process only, so when a Ponte
 * answers at PONTE_OPERATOR_URL the running process takes the copy itself (`GET /operator/backup`, with
 * PONTE_OPERATOR_TOKEN) and this command writes what it streams; when nothing answers there, Ponte is
 * stopped and the command opens the data directory directly.
 *
 * The file is written as FILE.partial, fsynced, then renamed to FILE: a backup killed half way leaves at
 * most FILE.partial, which has no manifest and which restore refuses. A copy streamed by the server is
 * checked (manifest and checksum) before it is renamed.
 *
 * `npm run backup -- --instance-secret SECRETFILE` writes instead the instance's generated root secret (never
 * in a copy), to be kept apart from the copies and given to `npm run restore -- FILE --instance-secret
 * SECRETFILE`. It reads the database directly: PostgreSQL, or the embedded one with Ponte stopped.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { loadConfig } from '../src/config.ts';
import { copyDatabase, NothingToBackUp } from '../src/db/backup/copy.ts';
import { BadBackupFile, checkBackupFile } from '../src/db/backup/file.ts';
import type { Manifest } from '../src/db/backup/format.ts';
import { readInstanceSecret } from '../src/db/backup/load.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { progressLine } from '../src/lib/progress.ts';

if (process.argv[2] === '--instance-secret') await writeInstanceSecret(process.argv[3]);
const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: npm run backup -- FILE\n');
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
  const manifest = config.databaseUrl
    ? await copyHere()
    : ((await copyByRunningPonte()) ?? (await copyHere()));
  fsyncSync(fd);
  closeSync(fd);
  renameSync(partial, file);
  process.stdout.write(
    `backup written to ${file}: schema ${manifest.schemaVersion}, ${manifest.rows} rows\n`,
  );
} catch (error) {
  if (!(error instanceof NothingToBackUp || error instanceof BadBackupFile || error instanceof Refused))
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
