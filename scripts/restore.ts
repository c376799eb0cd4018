/**
 * `npm run restore -- FILE`: restores a copy made by `npm run backup` into the configured database
 * (DATABASE_URL, or the embedded database in PONTE_DATA_DIR), which must be empty (exit code 2 when it is
 * not). The file is checked whole first, streaming: a file without its manifest (cut short) or whose
 * checksum differs (changed or corrupt) is refused with exit code 1 and nothing is written. The rows are
 * then streamed from the file (`src/db/backup/load.ts`), so memory stays bounded whatever its size.
 *
 * `--instance-secret SECRETFILE`: the instance's generated root secret, kept apart from the copy (the
 * `value` of `instance_secrets`, as `npm run backup -- --instance-secret SECRETFILE` wrote it), is put back
 * so that what the copy holds sealed opens again. Not needed when PONTE_INSTANCE_SECRET is configured.
 */
import { readFileSync } from 'node:fs';
import { loadConfig } from '../src/config.ts';
import { BadBackupFile, checkBackupFile } from '../src/db/backup/file.ts';
import { loadBackup, restoreInstanceSecret, TargetNotEmpty } from '../src/db/backup/load.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { progressLine } from '../src/lib/progress.ts';

function refuse(message: string, code: number): never {
  process.stderr.write(`restore refused: ${message}\n`);
  process.exit(code);
}

const args = process.argv.slice(2);
const at = args.indexOf('--instance-secret');
const secretFile = at >= 0 ? args.splice(at, 2)[1] : undefined;
const file = args[0];
if (!file || (at >= 0 && !secretFile))
  refuse('usage: npm run restore -- FILE [--instance-secret SECRETFILE]', 2);
const secret = secretFile ? readSecret(secretFile) : undefined;

const checked = await checkBackupFile(file).catch((error: unknown) => {
  if (error instanceof BadBackupFile) refuse(error.message, 1);
  throw error;
});
const { manifest } = checked;

const config = loadConfig();
const db = await connectDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 1 });
try {
  const progress = progressLine(process.stderr, 'restoring', 'rows');
  const applied = await loadBackup(db, file, checked, progress.update);
  progress.finish(`${manifest.rows} rows`);
  if (secret) await restoreInstanceSecret(db, secret, new Date());
  process.stdout.write(
    `restored ${file}: schema ${manifest.schemaVersion}, ${manifest.rows} rows` +
      (applied.length ? `; migrated forward through ${applied.at(-1)}` : '') +
      '\n',
  );
} catch (error) {
  if (!(error instanceof TargetNotEmpty)) throw error;
  process.exitCode = 2;
  process.stderr.write(`restore refused: ${error.message}\n`);
} finally {
  await db.close();
}

function readSecret(path: string): string {
  let value: string;
  try {
    value = readFileSync(path, 'utf8').trim();
  } catch (error) {
    refuse(`cannot read ${path}: ${(error as Error).message}`, 1);
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(value))
    refuse(`${path} does not hold an instance secret (43 base64url characters)`, 1);
  return value;
}
