/**
 * What the database can store, as rules every layer can check before a value reaches SQL:
 * text without NUL characters and with well-formed UTF-16 (PostgreSQL text and jsonb refuse NUL, and
 * jsonb refuses an unpaired surrogate), UUIDs in their canonical form only, dates and instants within
 * the years PostgreSQL and ECMAScript both represent, and page numbers small enough for any OFFSET.
 */

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored as text, or null when it can. */
export function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (UNPAIRED_SURROGATE.test(value)) return 'must be well-formed Unicode (no unpaired surrogates)';
  return null;
}

/** A UUID as PostgreSQL prints it: 8-4-4-4-12 hex digits, nothing around it (no urn:uuid:, no braces). */
export const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** First and last instants accepted as input: years 0001 to 9999. */
export const EARLIEST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z');
export const LATEST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** True for a calendar date (YYYY-MM-DD, already well-formed) whose year is 0001 or later. */
export function dateInRange(value: string): boolean {
  return Number(value.slice(0, 4)) >= 1;
}

/** True for a date-time (already well-formed) that names a real instant within the accepted years. */
export function instantInRange(value: string): boolean {
  if (!dateInRange(value)) return false;
  const at = Date.parse(value);
  return Number.isFinite(at) && at >= EARLIEST_INSTANT && at <= LATEST_INSTANT;
}

/** The highest page number a list accepts: with pages of at most 50, offsets stay far within range. */
export const MAX_PAGE = 1_000_000;
