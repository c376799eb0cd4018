/**
 * Reading a list's published files from disk and importing them as a new version: `--source ofac-sdn DIR`
 * (sdn.csv, alt.csv, add.csv and, when present, sdn_comments.csv) or `--source un FILE` (the consolidated
 * XML). A file that does not parse is refused whole, with its name and line, before anything is written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../../db/types.ts';
import { digestOf, type ImportCounts, importList } from './lists.ts';
import { parseOfacSdn } from './sources/ofac-sdn.ts';
import { ListFormatError, type ParsedList } from './sources/types.ts';
import { parseUnList } from './sources/un.ts';

export type ImportSource = 'ofac-sdn' | 'un';
export const IMPORT_SOURCES: readonly ImportSource[] = ['ofac-sdn', 'un'];

function read(path: string, name: string): string {
  if (!existsSync(path)) throw new ListFormatError(name, null, `not found at ${path}`);
  return readFileSync(path, 'utf8');
}

/** The parsed list and the digest of the files it came from. */
export function readList(source: ImportSource, path: string): { list: ParsedList; digest: string } {
  if (source === 'un') {
    const xml = read(path, path);
    return { list: parseUnList(path, xml), digest: digestOf([xml]) };
  }
  const files = {
    sdn: read(join(path, 'sdn.csv'), 'sdn.csv'),
    alt: read(join(path, 'alt.csv'), 'alt.csv'),
    add: read(join(path, 'add.csv'), 'add.csv'),
    comments: existsSync(join(path, 'sdn_comments.csv'))
      ? read(join(path, 'sdn_comments.csv'), 'sdn_comments.csv')
      : undefined,
  };
  return {
    list: parseOfacSdn(files),
    digest: digestOf([files.sdn, files.alt, files.add, files.comments ?? '']),
  };
}

export async function importFiles(
  db: Database,
  source: ImportSource,
  path: string,
  at: Date,
  progress?: (written: number, total: number) => void,
): Promise<ImportCounts> {
  const { list, digest } = readList(source, path);
  return importList(db, list, digest, at, progress);
}
