/**
 * Several statements sent as one, so that a request needs one round trip to PostgreSQL where it would
 * need one per statement. Each part is written with its own placeholders ($1, $2, ...) next to the code
 * that owns its table; the combiner numbers them on and joins the texts, which are the same for the same
 * parts in the same order (so the combined statement is prepared once per connection).
 *
 * - `readEach` (over `combinedFacts`): each fact is a SELECT answering at most one row, its columns named
 *   apart from every other fact's; a fact that found no row leaves its columns null. Every fact reads the
 *   same snapshot, taken when the statement starts: run it after the row lock that orders concurrent
 *   writers, so that it sees everything committed before the lock.
 * - `writeAll`: each part is an INSERT or UPDATE without RETURNING; they run as the data-modifying
 *   common table expressions of one statement. Parts must not touch the same rows (they cannot see each
 *   other's changes); foreign keys between them are checked at the end of the statement, so a part may
 *   reference a row another part inserts.
 *
 * Repos export what a creation reads and writes as facts (`ReadFact`: a SELECT with its own
 * placeholders, the types of its parameters, how an input binds to them and how its columns decode;
 * `WriteFact`: an INSERT or UPDATE over a list of items), never SQL to splice: `combinedFacts` and
 * `readEach` read several facts for several inputs in one statement, `writing` binds a write fact as a
 * part of `writeAll`. A creation alone is a list of one, in the same statement texts.
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
const cache: Level = { next: new Map() };
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

function combine(parts: readonly StatementPart[], join: (texts: string[]) => string): StatementPart {
  const params: unknown[] = [];
  for (const part of parts) params.push(...part.params);
  let level = cache;
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

/** The statement of `writeAll`: every part but the last a CTE, the last the statement itself. */
export function combinedWrite(parts: readonly StatementPart[]): StatementPart {
  return combine(parts, (texts) => {
    const last = texts.pop()!;
    if (texts.length === 0) return last;
    return `WITH ${texts.map((text, index) => `w${index} AS (${text})`).join(',\n')}\n${last}`;
  });
}

export async function writeAll(db: Executor, parts: readonly StatementPart[]): Promise<void> {
  const { text, params } = combinedWrite(parts);
  await db.query(text, params);
}

/**
 * A fact a repo exports for the reads a creation decides on: a SELECT answering at most one row, its
 * columns named apart from every other fact's, written with its own placeholders ($1, $2, ...) of the SQL
 * types `types` gives; `params` binds an input to them and `decode` reads the fact's columns of the row
 * (null, or absent, where it found no row). No caller writes a placeholder of a combined statement: the
 * combiner numbers them (`combinedFacts`, `readFact`).
 */
export type ReadFact<In, Out> = {
  readonly text: string;
  readonly types: readonly string[];
  readonly params: (input: In) => readonly unknown[];
  readonly decode: (row: Partial<Record<string, unknown>>) => Out;
};

/** A read fact, its `decode` typed by the columns it answers. */
export function readFact<In, Columns, Out>(fact: {
  text: string;
  types: readonly string[];
  params: (input: In) => readonly unknown[];
  decode: (row: Partial<Columns>) => Out;
}): ReadFact<In, Out> {
  return fact as ReadFact<In, Out>;
}

/** Runs one fact on its own: its decoded answer for `input`. */
export async function readOne<In, Out>(db: Executor, fact: ReadFact<In, Out>, input: In): Promise<Out> {
  const rows = await db.query<Record<string, unknown>>(fact.text, fact.params(input));
  return fact.decode(rows[0] ?? {});
}

/** Any read fact, whatever its input and answer. */
export type AnyReadFact = ReadFact<never, unknown>;
export type InputsOf<Facts extends Record<string, AnyReadFact>> = {
  [Name in keyof Facts]: Facts[Name] extends ReadFact<infer In, unknown> ? In : never;
};
export type AnswersOf<Facts extends Record<string, AnyReadFact>> = {
  [Name in keyof Facts]: Facts[Name] extends ReadFact<never, infer Out> ? Out : never;
};

/** Several facts read as one statement for several inputs; built once, where it is declared. */
export type CombinedFacts<Facts extends Record<string, AnyReadFact>> = {
  readonly text: string;
  readonly facts: Facts;
};

/**
 * Several facts read as one statement: for each input, every fact joined LATERAL to it. Each
 * fact's parameters become columns of an `unnest` of arrays (one array per parameter, of its type, with
 * one element per input), and its placeholders are renumbered into those columns, so one statement text
 * answers any number of inputs (prepared once per connection); `readEach` runs it.
 */
export function combinedFacts<Facts extends Record<string, AnyReadFact>>(facts: Facts): CombinedFacts<Facts> {
  const arrays: string[] = [];
  const joins: string[] = [];
  Object.values(facts).forEach((fact, index) => {
    const offset = arrays.length;
    for (const type of fact.types) arrays.push(`$${arrays.length + 1}::${type}[]`);
    const text = fact.text.replace(PLACEHOLDER, (_, n) => `k.p${Number(n) + offset}`);
    joins.push(`  LEFT JOIN LATERAL (${text}) AS r${index} ON true`);
  });
  const columns = arrays.map((_, index) => `p${index + 1}`).join(', ');
  const answers = joins.map((_, index) => `r${index}.*`).join(', ');
  const text = `SELECT k.position, ${answers}
  FROM unnest(${arrays.join(', ')}) WITH ORDINALITY AS k(${columns}, position)
${joins.join('\n')}`;
  return { text, facts };
}

/** Runs a `combinedFacts` statement: for each input, in order, every fact's decoded answer. */
export async function readEach<Facts extends Record<string, AnyReadFact>>(
  db: Executor,
  combined: CombinedFacts<Facts>,
  inputs: readonly InputsOf<Facts>[],
): Promise<AnswersOf<Facts>[]> {
  const entries = Object.entries(combined.facts) as [keyof Facts & string, ReadFact<unknown, unknown>][];
  const params: unknown[][] = [];
  for (const [, fact] of entries) for (const _ of fact.types) params.push([]);
  for (const input of inputs) {
    let column = 0;
    for (const [name, fact] of entries) {
      for (const value of fact.params(input[name])) params[column++]!.push(value);
    }
  }
  const rows = await db.query<Record<string, unknown> & { position: bigint | string }>(combined.text, params);
  const each: AnswersOf<Facts>[] = [];
  for (const row of rows) {
    const answers = {} as Record<string, unknown>;
    for (const [name, fact] of entries) answers[name] = fact.decode(row);
    each[Number(row.position) - 1] = answers as AnswersOf<Facts>;
  }
  return each;
}

/**
 * A fact a repo exports for the writes of creations: one INSERT or UPDATE (no RETURNING) over a list of
 * items, whatever their number (arrays as parameters: one text, prepared once), written with its own
 * placeholders; `params` binds the items. A creation alone writes a list of one.
 */
export type WriteFact<Item> = {
  readonly text: string;
  readonly params: (items: readonly Item[]) => readonly unknown[];
};

/** A write fact bound to its items, as a part of `writeAll`. */
export function writing<Item>(fact: WriteFact<Item>, items: readonly Item[]): StatementPart {
  return { text: fact.text, params: fact.params(items) };
}
