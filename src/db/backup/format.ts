/**
 * The portable backup file of `npm run backup` / `npm run restore`: a logical copy, one format for both
 * databases, so a copy of the embedded database restores onto PostgreSQL and back (a `pg_dump` archive
 * cannot be made from PGlite, nor read into it). The embedded database always writes it; PostgreSQL writes
 * it with `--portable`, and by default its own custom-format archive (`pg-archive.ts`). Lines of JSON:
 *   #{"table":"customers","columns":[...]}     then one line per row: the row as JSON (row_to_json)
 *   #{"sequence":"x_seq","value":"42"}          a sequence's last value
 *   {"manifest":{format, schemaVersion, createdAt, source, sha256, rows}}   last line
 * The manifest comes last and carries the sha256 of every byte before it: a file cut short (a backup killed
 * half way) has no manifest, and a file changed since has another checksum; restore refuses both.
 *
 * `instance_secrets` is never copied: the instance's root secret stays out of every copy, so the sealed
 * secrets in the copy (webhook signing secrets, wallet keys) stay ciphertext to whoever holds the file.
 */
export const BACKUP_FORMAT = 'ponte-backup/1';

/** Tables the copy leaves out: the root secret, and the migration record (restore rebuilds it). */
export const NOT_COPIED = new Set(['instance_secrets', 'schema_migrations']);

export type Manifest = {
  format: string;
  schemaVersion: string;
  createdAt: string;
  source: 'pglite' | 'postgres';
  sha256: string;
  rows: number;
};

export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
