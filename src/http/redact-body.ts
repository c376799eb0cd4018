/**
 * Bodies as the request log keeps them: the logger's secret and personal-data fields replaced by
 * `[redacted]` at any depth, the logger's scrubbers run over what is left (API keys, signing secrets,
 * hosted-page and invitation tokens, CPF/CNPJ wherever they appear), and the result cut to a bounded size
 * with a marker saying so. A body that is not JSON is not kept, only its size.
 */
import { PERSONAL_FIELDS, replaceTaxId, SECRET_FIELDS, scrubSecrets } from './logger.ts';

/** Characters kept of one body (JSON text) in the request log. */
export const MAX_STORED_BODY = 16_384;
/** Bodies longer than this (raw) are not parsed at all: only their size is kept. */
export const MAX_PARSED_BODY = 262_144;

const REDACTED_FIELDS: ReadonlySet<string> = new Set([...SECRET_FIELDS, ...PERSONAL_FIELDS]);
const CENSOR = '[redacted]';

/**
 * The replacer of JSON.stringify that redacts: the walk happens inside the serialisation (building a
 * redacted copy first cost twice as much per body). Binary data and non-plain objects (a form's file
 * part, a stream) are never serialised.
 */
function redactField(key: string, value: unknown): unknown {
  if (REDACTED_FIELDS.has(key) && value !== null) return CENSOR;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return '[not kept]';
  const buffer = value as { type?: unknown; data?: unknown };
  // a Buffer, as its toJSON() gives it
  if (buffer.type === 'Buffer' && Array.isArray(buffer.data)) return `[binary, ${buffer.data.length} bytes]`;
  return value;
}

const QUOTE = 34;
const BACKSLASH = 92;

/**
 * The scrubbers over a JSON document, tax ids replaced only inside its strings: a number of a JSON
 * document shaped like a CPF or CNPJ (`44078.498896708`, after `[`, `,` or `: `) stays a number, where the
 * marker put in its place left the document unreadable. Whether a match is inside a string is found by
 * walking the strings before it (`stringEnd`), once over the text for all matches (they are rare: tax-id
 * fields are redacted by their keys first).
 */
function scrubDocument(text: string): string {
  // the scan's place: outside any string, or at the opening quote of the string it is in
  let at = 0;
  return scrubSecrets(text, (match, before, offset, whole) => {
    const start = offset + before.length;
    for (;;) {
      const quote = whole.indexOf('"', at);
      if (quote < 0 || quote >= start) return match;
      const end = stringEnd(whole, quote);
      if (end > start) {
        at = quote;
        return replaceTaxId(match, before, offset, whole);
      }
      at = end;
    }
  });
}

/** Cuts `text` to the stored size, saying how long it was. */
function bounded(text: string): string {
  if (text.length <= MAX_STORED_BODY) return text;
  return `${text.slice(0, MAX_STORED_BODY)}\n…[truncated: ${text.length} characters in all]`;
}

/** A body already parsed (a request's JSON body), redacted and bounded; null when there was none. */
export function redactParsedBody(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  if (Buffer.isBuffer(body)) return `[binary body of ${body.length} bytes, not kept]`;
  if (typeof body === 'string') return `[non-JSON body of ${body.length} characters, not kept]`;
  if (typeof body !== 'object') return JSON.stringify(body) ?? null;
  let text: string;
  try {
    text = JSON.stringify(body, redactField);
  } catch {
    return '[body not kept]';
  }
  return bounded(scrubDocument(text));
}

/** `[{,]` then a redacted field's key: in JSON text a key can only follow `{` or `,` (and blanks). */
const REDACTED_KEY = new RegExp(`[{,]\\s*"(?:${[...REDACTED_FIELDS].join('|')})"\\s*:\\s*`, 'g');

/** The end (exclusive) of the JSON string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** What ends a number, `true`, `false`: the next comma, closing bracket or blank. */
const SCALAR_END = /[,}\]\s]/g;

/** The end (exclusive) of the JSON value starting at `start`: a string, an object or array, or a scalar. */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return stringEnd(text, start);
  if (first === 123 || first === 91) {
    let depth = 0;
    let at = start;
    while (at < text.length) {
      const char = text.charCodeAt(at);
      if (char === QUOTE) {
        at = stringEnd(text, at);
        continue;
      }
      if (char === 123 || char === 91) depth++;
      else if (char === 125 || char === 93) {
        depth--;
        if (depth === 0) return at + 1;
      }
      at++;
    }
    return text.length;
  }
  SCALAR_END.lastIndex = start;
  return SCALAR_END.exec(text)?.index ?? text.length;
}

/**
 * The redacted fields' values of a JSON text replaced by `[redacted]`, on the text as it is (null values
 * stay null, as in `redactParsedBody`). Unlike parsing the text and writing it again through the
 * replacer, this only looks at the places where a redacted key occurs: a page of 20 limit requests cost
 * 90 µs the other way, most of it spent on fields that are never redacted.
 */
function redactJsonText(text: string): string {
  REDACTED_KEY.lastIndex = 0;
  let out = '';
  let kept = 0;
  for (let match = REDACTED_KEY.exec(text); match !== null; match = REDACTED_KEY.exec(text)) {
    const start = match.index + match[0].length;
    if (text.startsWith('null', start)) continue;
    const end = valueEnd(text, start);
    out += `${text.slice(kept, start)}"${CENSOR}"`;
    kept = end;
    REDACTED_KEY.lastIndex = end;
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/** Whether a payload is a JSON object or array (what the API answers); anything else is not kept. */
function isJsonDocument(payload: string): boolean {
  const first = payload.charCodeAt(0);
  const last = payload.charCodeAt(payload.length - 1);
  return (first === 123 && last === 125) || (first === 91 && last === 93);
}

/**
 * A body as sent (a response's payload text: compact JSON from the route's serialiser), redacted and
 * bounded; null when empty.
 */
export function redactBodyText(payload: string | undefined): string | null {
  if (payload === undefined || payload.length === 0) return null;
  if (payload.length > MAX_PARSED_BODY) return `[body of ${payload.length} characters, not kept]`;
  // not JSON (a CSV export, a document): its fields cannot be told apart, so none of it is kept
  if (!isJsonDocument(payload)) return `[non-JSON body of ${payload.length} characters, not kept]`;
  return bounded(scrubDocument(redactJsonText(payload)));
}
