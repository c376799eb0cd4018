/**
 * Several statements sent as one, so that a request needs one round trip to PostgreSQL where it would
 * need one per statement. Each part is written with its own placeholders ($1, $2, ...) next to the code
 * that owns its table; `readAll` and `writeAll` number them on and join the texts, which are the same for
 * the same parts in the same order (so the combined statement is prepared once per connection).
 *
 * - `readAll`: each part is a SELECT answering at most one row, its columns named apart from every
 *   other part's; the answer is one row with all the columns (a part that found no row leaves its
 *   columns null). Every part reads the same snapshot, taken when the statement starts: run it after
 *   the row lock that orders concurrent writers, so that it sees everything committed before the lock.
 * - `writeAll`: each part is an INSERT or UPDATE without RETURNING; they run as the data-modifying
 *   common table expressions of one statement. Parts must not touch the same rows (they cannot see each
 *   other's changes); foreign keys between them are checked at the end of the statement, so a part may
 *   reference a row another part inserts.
 */
import type { Executor } from './types.ts';

export type StatementPart = { text: string; params: readonly unknown[] };

const PLACEHOLDER = /\$(\d+)/g;

/**
 * Combined texts by the parts' texts, one level per part: the same parts come back on every request, so
 * finding the combined text costs a lookup per part (each part's text is a constant whose hash the
 * engine keeps), never a renumbering or a key built from every text. Bounded, like the statement names:
 * past it, texts are built anew.
 */
type Level = { next: Map<string, Level>; text?: string };
const cache: Record<'read' | 'write', Level> = { read: { next: new Map() }, write: { next: new Map() } };
const CACHED_TEXTS = 1_000;
let cachedTexts = 0;

function renumbered(parts: readonly StatementPart[]): string[] {
  const texts: string[] = [];
  let offset = 0;
  for (const part of parts) {
    const shift = offset;
    texts.push(shift === 0 ? part.text : part.text.replace(PLACEHOLDER, (_, n) => `$${Number(n) + shift}`));
    offset += part.params.length;
  }
  return texts;
}

function combine(
  parts: readonly StatementPart[],
  join: (texts: string[]) => string,
  kind: 'read' | 'write',
): StatementPart {
  const params: unknown[] = [];
  for (const part of parts) params.push(...part.params);
  let level = cache[kind];
  for (const part of parts) {
    let next = level.next.get(part.text);
    if (next === undefined) {
      if (cachedTexts >= CACHED_TEXTS) return { text: join(renumbered(parts)), params };
      next = { next: new Map() };
      level.next.set(part.text, next);
    }
    level = next;
  }
  if (level.text === undefined) {
    level.text = join(renumbered(parts));
    cachedTexts++;
  }
  return { text: level.text, params };
}

/** The SELECT of `readAll`: every part joined LATERAL to one row. */
export function combinedRead(parts: readonly StatementPart[]): StatementPart {
  return combine(
    parts,
    (texts) =>
      `SELECT * FROM (SELECT 1 AS one) AS one\n${texts
        .map((text, index) => `LEFT JOIN LATERAL (${text}) AS r${index} ON true`)
        .join('\n')}`,
    'read',
  );
}

export async function readAll<Row>(db: Executor, parts: readonly StatementPart[]): Promise<Row> {
  const { text, params } = combinedRead(parts);
  const rows = await db.query<Row>(text, params);
  return rows[0]!;
}

/** The statement of `writeAll`: every part but the last a CTE, the last the statement itself. */
export function combinedWrite(parts: readonly StatementPart[]): StatementPart {
  return combine(
    parts,
    (texts) => {
      const last = texts.pop()!;
      if (texts.length === 0) return last;
      return `WITH ${texts.map((text, index) => `w${index} AS (${text})`).join(',\n')}\n${last}`;
    },
    'write',
  );
}

export async function writeAll(db: Executor, parts: readonly StatementPart[]): Promise<void> {
  const { text, params } = combinedWrite(parts);
  await db.query(text, params);
}

/**
 * The batch form of `combinedRead`: for each row of keys (the parameters $1, $2, ... as arrays of the
 * given types, unnested side by side as the columns of `k`), every part joined LATERAL to it. A part reads
 * the keys as `k.<name>`; parameters after the keys' are its own. Built once, where the statement is
 * declared; `readEach` runs it.
 */
export function combinedReadEach(
  keys: readonly [name: string, type: string][],
  parts: readonly string[],
): string {
  const arrays = keys.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
  const names = keys.map(([name]) => name).join(', ');
  return `SELECT k.position, ${parts.map((_, index) => `r${index}.*`).join(', ')}
  FROM unnest(${arrays}) WITH ORDINALITY AS k(${names}, position)
${parts.map((text, index) => `  LEFT JOIN LATERAL (${text}) AS r${index} ON true`).join('\n')}`;
}

/** Runs a `combinedReadEach` statement: one row per row of keys, in the keys' order. */
export async function readEach<Row>(db: Executor, text: string, params: readonly unknown[]): Promise<Row[]> {
  const rows = await db.query<Row & { position: bigint | string }>(text, params);
  const each: Row[] = [];
  for (const row of rows) each[Number(row.position) - 1] = row;
  return each;
}
