/**
 * Takes the copy of `format.ts` from an open database, handing its bytes to `write` as they are read.
 * Every table is read in one REPEATABLE READ, READ ONLY transaction, so the copy is the database as of one
 * instant whatever is written meanwhile. On PostgreSQL the copy holds one connection and requests go on
 * beside it. Embedded (PGlite has one session), requests wait for the copy's transaction to end.
 *
 * Rows are read a range of table blocks at a time (a TID range scan: each statement reads only its blocks,
 * so a table is read once whatever its size), and written out at about 1 MB a time, so a large table never
 * sits whole in memory; `write` may be slow (a network peer), the copy waits for it.
 */
import { createHash } from 'node:crypto';
import type { Database, Queryable } from '../types.ts';
import { BACKUP_FORMAT, type Manifest, NOT_COPIED, quoteIdentifier as quote } from './format.ts';

/** Why a copy did not start: the database holds no Ponte schema. */
export class NothingToBackUp extends Error {}

/** Table blocks (8 kB) read a statement at a time: a few thousand rows, a few megabytes. */
const BLOCKS = 256;
const CHUNK = 1 << 20;

export async function copyDatabase(
  db: Database,
  write: (chunk: Buffer) => unknown,
  onProgress: (tablesDone: number, tables: number) => void = () => {},
): Promise<Manifest> {
  const hash = createHash('sha256');
  let pending: string[] = [];
  let pendingLength = 0;
  const flush = async () => {
    if (!pending.length) return;
    const chunk = Buffer.from(pending.join(''), 'utf8');
    pending = [];
    pendingLength = 0;
    hash.update(chunk);
    await write(chunk);
  };
  const line = async (text: string) => {
    pending.push(`${text}\n`);
    pendingLength += text.length;
    if (pendingLength > CHUNK) await flush();
  };

  const copied = await db.transaction(
    async (tx) => {
      await tx.query('SET TRANSACTION READ ONLY');
      const schemaVersion = await lastMigration(tx);
      const tables = (
        await tx.query<{ name: string }>(
          `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
        )
      ).filter((t) => !NOT_COPIED.has(t.name));
      let rows = 0;
      for (const [index, { name }] of tables.entries()) {
        const columns = (
          await tx.query<{ column_name: string }>(
            `SELECT column_name FROM information_schema.columns
              WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER'
              ORDER BY ordinal_position`,
            [name],
          )
        ).map((c) => c.column_name);
        await line(`#${JSON.stringify({ table: name, columns })}`);
        const list = columns.map((c) => `t.${quote(c)}`).join(', ');
        // blocks of the table as the snapshot sees it (rows added later are in no block of it or invisible)
        const [{ blocks } = { blocks: 0 }] = await tx.query<{ blocks: number }>(
          `SELECT (pg_relation_size($1::regclass) / current_setting('block_size')::int)::int AS blocks`,
          [quote(name)],
        );
        for (let from = 0; from < blocks; from += BLOCKS) {
          const page = await tx.query<{ row: string }>(
            `SELECT (SELECT row_to_json(r) FROM (SELECT ${list}) r)::text AS row
               FROM ${quote(name)} t WHERE t.ctid >= $1::tid AND t.ctid < $2::tid`,
            [`(${from},0)`, `(${from + BLOCKS},0)`],
          );
          for (const { row } of page) await line(row);
          rows += page.length;
        }
        onProgress(index + 1, tables.length);
      }
      const sequences = await tx.query<{ name: string; value: string | null }>(
        `SELECT sequencename AS name, last_value::text AS value FROM pg_sequences WHERE schemaname = 'public'`,
      );
      for (const s of sequences)
        if (s.value !== null) await line(`#${JSON.stringify({ sequence: s.name, value: s.value })}`);
      return { schemaVersion, rows };
    },
    { isolation: 'repeatable read' },
  );
  await flush();
  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    schemaVersion: copied.schemaVersion,
    createdAt: new Date().toISOString(),
    source: db.kind,
    sha256: hash.digest('hex'),
    rows: copied.rows,
  };
  await write(Buffer.from(`${JSON.stringify({ manifest })}\n`, 'utf8'));
  return manifest;
}

/** The last migration the database recorded; NothingToBackUp when it holds no Ponte schema. */
export async function lastMigration(tx: Queryable): Promise<string> {
  const [exists] = await tx.query<{ found: boolean }>(
    "SELECT to_regclass('public.schema_migrations') IS NOT NULL AS found",
  );
  const rows = exists?.found
    ? await tx.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1')
    : [];
  if (!rows[0])
    throw new NothingToBackUp('this database holds no Ponte schema (has Ponte ever started on it?)');
  return rows[0].name;
}
