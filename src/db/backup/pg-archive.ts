/**
 * PostgreSQL's own backup format: a `pg_dump --format=custom` archive, made and restored by the
 * `pg_dump` and `pg_restore` programs found on PATH (README, "Backup and restore"). This is what
 * `npm run backup` writes on PostgreSQL unless `--portable` is given: the archive is PostgreSQL's
 * tooling's own (`pg_restore -l`, `--jobs`, `--table`, …), and pg_dump reads the whole database in one
 * snapshot, so the copy is consistent while Ponte writes.
 *
 * Like the portable copy, the archive leaves the instance's root secret out: `instance_secrets` is dumped
 * without its rows (`--exclude-table-data`). Unlike it, the archive carries `schema_migrations`, so a
 * restored copy knows its version and the current migrations take it forward.
 *
 * The connection is given to both programs through libpq's environment (PGHOST, PGUSER, PGPASSWORD, …,
 * https://www.postgresql.org/docs/15/libpq-envars.html), never on their command line, where any user of
 * the machine could read a password; nothing here prints DATABASE_URL.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readSync } from 'node:fs';
import { userInfo } from 'node:os';
import { createInterface } from 'node:readline';
import { FORMER_NAMES, migrationFiles } from '../migrate.ts';

/** A custom-format archive begins with these bytes (`pg_backup_archiver.c`, "PGDMP"). */
const ARCHIVE_MAGIC = 'PGDMP';

/** Why an archive was not made or not restored; `message` says it to an operator. */
export class ArchiveFailed extends Error {}

/** The file's format, from its first bytes: a pg_dump archive, a plain SQL dump, or (else) portable. */
export function backupFileKind(path: string): 'archive' | 'plain-sql' | 'portable' {
  let head = '';
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(64);
      head = buffer.subarray(0, readSync(fd, buffer, 0, 64, 0)).toString('latin1');
    } finally {
      closeSync(fd);
    }
  } catch {
    return 'portable'; // unreadable: the portable path says why, as it always has
  }
  if (head.startsWith(ARCHIVE_MAGIC)) return 'archive';
  if (head.startsWith('--\n-- PostgreSQL database dump')) return 'plain-sql';
  return 'portable';
}

/** Parameters of a DATABASE_URL query that libpq reads from the environment, and under which name. */
const LIBPQ_PARAMETERS: Record<string, string> = {
  sslmode: 'PGSSLMODE',
  sslrootcert: 'PGSSLROOTCERT',
  sslcert: 'PGSSLCERT',
  sslkey: 'PGSSLKEY',
  application_name: 'PGAPPNAME',
  connect_timeout: 'PGCONNECT_TIMEOUT',
  options: 'PGOPTIONS',
};

/** DATABASE_URL as libpq's environment variables: the password goes in PGPASSWORD, not on a command line. */
export function libpqEnvironment(databaseUrl: string): Record<string, string> {
  // no host before the path (`postgres://user@/db?host=/socket/dir`) is no URL to WHATWG: one is lent
  const hostless = /^postgres(ql)?:\/\/([^/]*@)?\//.test(databaseUrl);
  const url = new URL(
    hostless ? databaseUrl.replace(/^(postgres(ql)?:\/\/([^/]*@)?)\//, '$1localhost/') : databaseUrl,
  );
  const env: Record<string, string> = {};
  const host =
    url.searchParams.get('host') ??
    (hostless ? '' : decodeURIComponent(url.hostname).replace(/^\[(.*)\]$/, '$1'));
  if (host) env.PGHOST = host;
  if (url.port) env.PGPORT = url.port;
  const user = decodeURIComponent(url.username) || process.env.PGUSER || userInfo().username;
  env.PGUSER = user;
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  env.PGDATABASE = decodeURIComponent(url.pathname.slice(1)) || process.env.PGDATABASE || user;
  for (const [name, variable] of Object.entries(LIBPQ_PARAMETERS)) {
    const value = url.searchParams.get(name);
    if (value !== null) env[variable] = value;
  }
  // node-postgres's `ssl=true` without an sslmode: TLS required
  const ssl = url.searchParams.get('ssl');
  if (!env.PGSSLMODE && (ssl === 'true' || ssl === '1')) env.PGSSLMODE = 'require';
  return env;
}

type Run = { code: number | null; stdout: string; errors: string[] };

/**
 * Runs `program` with the connection in its environment; `onLine` sees each line it writes on stderr
 * (the `--verbose` lines). Resolves once it exits, with its exit code, its stdout (when `keepStdout`) and
 * the lines that say what went wrong.
 */
function runTool(
  program: 'pg_dump' | 'pg_restore',
  args: string[],
  options: { databaseUrl?: string; onLine?: (line: string) => void; keepStdout?: boolean } = {},
  started?: (child: ReturnType<typeof spawn>) => void,
): Promise<Run> {
  const env = { ...process.env, ...(options.databaseUrl ? libpqEnvironment(options.databaseUrl) : {}) };
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      env,
      stdio: ['ignore', options.keepStdout ? 'pipe' : 'ignore', 'pipe'],
    });
    started?.(child);
    let stdout = '';
    const errors: string[] = [];
    const tail: string[] = [];
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const lines = createInterface({ input: child.stderr!, crlfDelay: Infinity });
    lines.on('line', (line) => {
      options.onLine?.(line);
      if (/\b(error|fatal|detail|hint):/i.test(line) || /^(DETAIL|HINT|Command was):/.test(line.trim()))
        errors.push(line);
      tail.push(line);
      if (tail.length > 5) tail.shift();
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new ArchiveFailed(
              `${program} was not found on PATH: install PostgreSQL's client programs (of the server's major ` +
                `version or newer)${program === 'pg_dump' ? ', or take a portable copy with --portable' : ''}`,
            )
          : error,
      ),
    );
    child.once('close', (code) => resolve({ code, stdout, errors: errors.length ? errors : tail }));
  });
}

/**
 * Writes the archive of the database at `databaseUrl` into `path` (`pg_dump --format=custom`), telling
 * `onTable` as each table's rows are dumped. Rejects with ArchiveFailed when pg_dump fails; `path` then
 * holds whatever it wrote, which the caller discards.
 */
export async function dumpArchive(
  databaseUrl: string,
  path: string,
  onTable: (tablesDone: number) => void = () => {},
  started?: (child: ReturnType<typeof spawn>) => void,
): Promise<void> {
  let done = 0;
  const run = await runTool(
    'pg_dump',
    [
      '--format=custom',
      '--verbose',
      '--no-password',
      '--exclude-table-data=public.instance_secrets',
      `--file=${path}`,
    ],
    {
      databaseUrl,
      onLine: (line) => {
        if (/dumping contents of table /.test(line)) onTable(++done);
      },
    },
    started,
  );
  if (run.code !== 0)
    throw new ArchiveFailed(`pg_dump failed (exit code ${run.code}): ${run.errors.join(' ')}`);
}

/** Tables with rows in the archive (`pg_restore -l`); ArchiveFailed when it cannot be read. */
export async function archiveTables(path: string): Promise<number> {
  const run = await runTool('pg_restore', ['--list', path], { keepStdout: true });
  if (run.code !== 0)
    throw new ArchiveFailed(
      `${path} is not a readable pg_dump archive (cut short or damaged, or written by a newer pg_dump than this pg_restore): ${run.errors.join(' ')}`,
    );
  return run.stdout.split('\n').filter((line) => / TABLE DATA /.test(line)).length;
}

/**
 * The schema version the archive carries: the last migration its `schema_migrations` rows record, read
 * from the file itself (`pg_restore --data-only --table`). ArchiveFailed when the archive holds no
 * Ponte schema or when those rows cannot be read.
 */
export async function archiveSchemaVersion(path: string): Promise<string> {
  const run = await runTool('pg_restore', ['--data-only', '--table=schema_migrations', '--file=-', path], {
    keepStdout: true,
  });
  if (run.code !== 0)
    throw new ArchiveFailed(
      `${path} is not a readable pg_dump archive (cut short or damaged, or written by a newer pg_dump than this pg_restore): ${run.errors.join(' ')}`,
    );
  const lines = run.stdout.split('\n');
  const copy = lines.findIndex((line) => /^COPY \S*schema_migrations \(/.test(line));
  if (copy < 0) throw new ArchiveFailed(`${path} holds no Ponte schema (no schema_migrations rows)`);
  const columns = /\(([^)]*)\)/.exec(lines[copy]!)![1]!.split(', ');
  const at = columns.indexOf('name');
  const names: string[] = [];
  for (const line of lines.slice(copy + 1)) {
    if (line === '\\.') break;
    const name = line.split('\t')[at];
    if (name) names.push(name);
  }
  const last = names.sort().at(-1);
  if (!last) throw new ArchiveFailed(`${path} holds no Ponte schema (no schema_migrations rows)`);
  return last;
}

/** Whether this release knows the migration a copy was taken at (a newer release's copy it does not). */
export function knownSchemaVersion(version: string): boolean {
  return migrationFiles().includes(version) || Object.values(FORMER_NAMES).includes(version);
}

/**
 * Restores the archive into the (empty) database at `databaseUrl`, all in one transaction that stops at
 * the first error: a damaged or cut archive restores nothing. Objects are owned by the restoring user and
 * carry no grants of the source (`--no-owner --no-privileges`): the target's roles need not match.
 */
export async function restoreArchive(
  databaseUrl: string,
  path: string,
  onTable: (tablesDone: number) => void = () => {},
): Promise<void> {
  let done = 0;
  const env = libpqEnvironment(databaseUrl);
  const run = await runTool(
    'pg_restore',
    [
      '--single-transaction',
      '--exit-on-error',
      '--no-owner',
      '--no-privileges',
      '--verbose',
      '--no-password',
      `--dbname=dbname='${env.PGDATABASE!.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`,
      path,
    ],
    {
      databaseUrl,
      onLine: (line) => {
        if (/processing data for table /.test(line)) onTable(++done);
      },
    },
  );
  if (run.code !== 0)
    throw new ArchiveFailed(
      `${path} did not restore (cut short or damaged, or refused by the database): pg_restore stopped at ` +
        `its first error (exit code ${run.code}) and nothing was restored: ${run.errors.join(' ')}`,
    );
}
