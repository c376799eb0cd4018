import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrationChecksum, migrationFiles, printMigrationProgress } from '../../src/db/migrate.ts';

const DIR = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
const MANIFEST = fileURLToPath(new URL('../../src/db/migrations.sha256', import.meta.url));
const HOW =
  'A released migration must not change: put the change in a new file. A new file needs its line in ' +
  'src/db/migrations.sha256: (cd src/db/migrations && sha256sum NEW_FILE.sql) >> src/db/migrations.sha256';

/** `sha256  file` lines, as `sha256sum` writes them. */
function manifest(): Map<string, string> {
  const lines = readFileSync(MANIFEST, 'utf8').split('\n').filter(Boolean);
  return new Map(
    lines.map((line) => {
      const [hash, file] = line.split(/\s+\*?/);
      return [file!, hash!];
    }),
  );
}

/** What is wrong with the files against the manifest, one sentence per file; empty when nothing. */
function manifestProblems(files: Map<string, string>, recorded: Map<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, text] of files) {
    const hash = recorded.get(file);
    if (!hash) problems.push(`${file} has no checksum in src/db/migrations.sha256`);
    else if (hash !== migrationChecksum(text)) problems.push(`${file} changed since it was released`);
  }
  for (const file of recorded.keys())
    if (!files.has(file)) problems.push(`${file} is in src/db/migrations.sha256 but was removed`);
  return problems;
}

describe('migrations stay append-only', () => {
  it('every migration file matches its released sha256 in src/db/migrations.sha256', () => {
    const files = new Map(migrationFiles().map((file) => [file, readFileSync(DIR + file, 'utf8')]));
    expect(files.size).toBe(readdirSync(DIR).filter((name) => name.endsWith('.sql')).length);
    const problems = manifestProblems(files, manifest());
    expect(problems, `${problems.join('; ')}. ${HOW}`).toEqual([]);
  });

  it('an edited, added or removed migration is named in the failure', () => {
    const recorded = manifest();
    const files = new Map(migrationFiles().map((file) => [file, readFileSync(DIR + file, 'utf8')]));
    const edited = new Map(files).set('001_core.sql', `${files.get('001_core.sql')}\n-- edited`);
    expect(manifestProblems(edited, recorded)).toEqual(['001_core.sql changed since it was released']);
    const added = new Map(files).set('999_new.sql', 'SELECT 1;');
    expect(manifestProblems(added, recorded)).toEqual([
      '999_new.sql has no checksum in src/db/migrations.sha256',
    ]);
    const removed = new Map(files);
    removed.delete('076_compliance_held_sends.sql');
    expect(manifestProblems(removed, recorded)).toEqual([
      '076_compliance_held_sends.sql is in src/db/migrations.sha256 but was removed',
    ]);
  });
});

describe('upgrade progress', () => {
  it('prints one plain line per applied migration with its time when not on a terminal', () => {
    const lines: string[] = [];
    const progress = printMigrationProgress({ write: (text: string) => lines.push(text) > 0, isTTY: false });
    progress({ file: '001_core.sql', index: 0, total: 2 });
    progress({ file: '001_core.sql', index: 0, total: 2, seconds: 0.25 });
    progress({ file: '002a_compliance.sql', index: 1, total: 2 });
    progress({ file: '002a_compliance.sql', index: 1, total: 2, seconds: 1.5 });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^migrated 1\/2 001_core\.sql in 0\.3 s \(\d+\.\d s elapsed\)\n$/);
    expect(lines[1]).toMatch(/^migrated 2\/2 002a_compliance\.sql in 1\.5 s/);
  });

  it('rewrites one line on a terminal, naming the migration under way', () => {
    const out: string[] = [];
    const progress = printMigrationProgress({ write: (text: string) => out.push(text) > 0, isTTY: true });
    progress({ file: '001_core.sql', index: 0, total: 1 });
    expect(out[0]?.startsWith('\r\x1b[Kmigrating 1/1 001_core.sql (')).toBe(true);
    progress({ file: '001_core.sql', index: 0, total: 1, seconds: 2 });
    expect(out.at(-1)).toBe('\n');
  });
});
