/**
 * Bodies as the request log keeps them: the logger's secret and personal-data fields replaced by
 * `[redacted]` at any depth but the few places known to hold none (a requirement's `name`), personal data
 * written in free-text fields (metadata, memos, comments) replaced where it is found, the logger's
 * scrubbers run over what is left (API keys, signing secrets, hosted-page and invitation tokens, CPF/CNPJ
 * wherever they appear), and the result cut to a bounded size with a marker saying so. A body that is not
 * JSON is not kept, only its size.
 */
import { mayHoldPersonalText, scrubPersonalText } from '../lib/personal-text.ts';
import { PERSONAL_FIELDS, replaceTaxId, SECRET_FIELDS, scrubSecrets } from './logger.ts';

/** Characters kept of one body (JSON text) in the request log. */
export const MAX_STORED_BODY = 16_384;
/** Bodies longer than this (raw) are not parsed at all: only their size is kept. */
export const MAX_PARSED_BODY = 262_144;

const REDACTED_FIELDS: ReadonlySet<string> = new Set([...SECRET_FIELDS, ...PERSONAL_FIELDS]);
const CENSOR = '[redacted]';
const CENSORED_JSON = `"${CENSOR}"`;

/**
 * Fields of free text (a partner's metadata, keys and values; a memo; a reason; a compliance comment):
 * no name says what they hold, so the personal data written in them (e-mails, tax ids, phones, document
 * numbers: `src/lib/personal-text.ts`) is replaced where it is found, the rest kept.
 */
export const FREE_TEXT_FIELDS: ReadonlySet<string> = new Set(['metadata', 'memo', 'reason', 'comment']);

/**
 * A free-text field's value with personal data replaced in its strings, its keys too; `field` names the
 * field a string is the value of (an identity document's number is replaced whole).
 */
function scrubFreeText(value: unknown, field: string): unknown {
  if (typeof value === 'string') return scrubPersonalText(value, field);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((element) => scrubFreeText(element, field));
  if (!isPlainObject(value)) return value;
  // own properties, a key named __proto__ too (an assignment would set the copy's prototype)
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [scrubPersonalText(key), scrubFreeText(inner, key)]),
  );
}

/**
 * Where a redacted field's key names no personal data: a field redacted everywhere else is kept in the
 * objects that are the elements of an array under one of these keys. A customer's `requirements` name
 * what compliance needs (`TERMS_OF_SERVICE`, `SELFIE`…), where every other `name` (a customer's, a
 * holder's, a party's, a Travel Rule beneficiary's, one the API may add later) stays redacted: a field is
 * kept only at a place known to hold no personal data.
 */
const KEPT_IN_ELEMENTS_OF: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['requirements', new Set(['name'])],
]);

/** The fields kept in an object of the parsed path, on a copy of it (a symbol: never serialised). */
const KEPT = Symbol('kept fields');
type Kept = { [KEPT]?: ReadonlySet<string> };

const isPlainObject = (value: object) => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** The elements of an array under a key of KEPT_IN_ELEMENTS_OF, each plain object copied with its kept set. */
function withKeptFields(elements: unknown[], kept: ReadonlySet<string>): unknown[] {
  return elements.map((element) => {
    if (element === null || typeof element !== 'object' || Array.isArray(element)) return element;
    if (!isPlainObject(element)) return element;
    const copy: Record<string | symbol, unknown> = { ...element };
    copy[KEPT] = kept;
    return copy;
  });
}

/**
 * The replacer of JSON.stringify that redacts: the walk happens inside the serialisation (building a
 * redacted copy first cost twice as much per body). `this` is the object or array holding `key`. Binary
 * data and non-plain objects (a form's file part, a stream) are never serialised.
 */
function redactField(this: Kept | undefined, key: string, unscrubbed: unknown): unknown {
  if (REDACTED_FIELDS.has(key) && unscrubbed !== null && !this?.[KEPT]?.has(key)) return CENSOR;
  const value = FREE_TEXT_FIELDS.has(key) ? scrubFreeText(unscrubbed, key) : unscrubbed;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const kept = KEPT_IN_ELEMENTS_OF.get(key);
    return kept === undefined ? value : withKeptFields(value, kept);
  }
  if (!isPlainObject(value)) return '[not kept]';
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

/**
 * `[{,]` then a redacted or free-text field's key (captured): in JSON text a key can only follow `{` or `,` (and blanks), so a
 * match is never inside a string (where a quote follows a backslash).
 */
const REDACTED_KEY = new RegExp(
  `[{,]\\s*"(${[...REDACTED_FIELDS, ...FREE_TEXT_FIELDS].join('|')})"\\s*:\\s*`,
  'g',
);
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

/** Whether the character at `at` is a JSON blank. */
const isBlank = (char: number) => char === 32 || char === 10 || char === 13 || char === 9;

/**
 * Where the array value of the key quoted at `quote` opens, when it is a key (after `{` or `,`) and its
 * value an array; -1 otherwise (a string's content, another value).
 */
function arrayOfKey(text: string, quote: number, length: number): number {
  let before = quote - 1;
  while (before >= 0 && isBlank(text.charCodeAt(before))) before--;
  const opener = text.charCodeAt(before);
  if (opener !== 123 && opener !== 44) return -1;
  let at = quote + length;
  while (isBlank(text.charCodeAt(at))) at++;
  if (text.charCodeAt(at) !== 58) return -1;
  at++;
  while (isBlank(text.charCodeAt(at))) at++;
  return text.charCodeAt(at) === 91 ? at : -1;
}

/**
 * The keys of KEPT_IN_ELEMENTS_OF as the text is searched for them: without their opening quote, a
 * character JSON is full of (a search for it first is several times slower), with what they keep.
 */
const KEPT_ARRAY_KEYS = [...KEPT_IN_ELEMENTS_OF].map(([key, kept]) => [`${key}"`, kept] as const);

/**
 * The places (of their opening quotes) of the keys the text keeps although they are redacted elsewhere:
 * the kept keys of the objects that are direct elements of an array under a key of KEPT_IN_ELEMENTS_OF.
 * Undefined when the text has no such array. The keys are searched for as text (far cheaper than a
 * pattern's pass over the whole answer); a key's text inside a string is never after `{` or `,` and a
 * quote, which in a string follows a backslash.
 */
function keptKeyPlaces(text: string): Set<number> | undefined {
  let places: Set<number> | undefined;
  for (const [unquoted, kept] of KEPT_ARRAY_KEYS) {
    for (let at = text.indexOf(unquoted); at >= 0; at = text.indexOf(unquoted, at + 1)) {
      if (text.charCodeAt(at - 1) !== QUOTE) continue;
      const open = arrayOfKey(text, at - 1, unquoted.length + 1);
      if (open < 0) continue;
      places ??= new Set();
      elementKeys(text, open, kept, places);
    }
  }
  return places;
}

/**
 * Adds to `places` where the keys among `kept` of the array's direct element objects start: the array
 * opens at `open`. One pass over the array, strings skipped whole; arrays nested in it are found by the
 * search for their own key.
 */
function elementKeys(text: string, open: number, kept: ReadonlySet<string>, places: Set<number>): void {
  // how deep the place reached is (the array 1, its elements' members 2), and whether a key comes next
  // in an element that is an object: keys deeper down are never kept
  let depth = 0;
  let inObject = false;
  let keyExpected = false;
  for (let at = open; at < text.length; ) {
    const char = text.charCodeAt(at);
    if (char === QUOTE) {
      const end = stringEnd(text, at);
      if (keyExpected && isKept(text, at, end, kept)) places.add(at);
      keyExpected = false;
      at = end;
      continue;
    }
    if (char === 123 || char === 91) {
      depth++;
      if (depth === 2) inObject = char === 123;
      keyExpected = depth === 2 && inObject;
    } else if (char === 125 || char === 93) {
      depth--;
      if (depth === 0) return;
    } else if (char === 44 && depth === 2) keyExpected = inObject;
    at++;
  }
}

/** Whether the JSON string from `quote` to `end` (its quotes included) is one of `kept`, as written. */
function isKept(text: string, quote: number, end: number, kept: ReadonlySet<string>): boolean {
  for (const key of kept) {
    if (end - quote - 2 === key.length && text.startsWith(key, quote + 1)) return true;
  }
  return false;
}

/**
 * The redacted fields' values of a JSON text replaced by `[redacted]`, on the text as it is (null values
 * stay null, as in `redactParsedBody`). Unlike parsing the text and writing it again through the
 * replacer, this only looks at the places where a redacted key occurs: a page of 20 limit requests cost
 * 90 µs the other way, most of it spent on fields that are never redacted.
 */
function redactJsonText(text: string): string {
  const keptPlaces = keptKeyPlaces(text);
  REDACTED_KEY.lastIndex = 0;
  let out = '';
  let kept = 0;
  for (let match = REDACTED_KEY.exec(text); match !== null; match = REDACTED_KEY.exec(text)) {
    const start = match.index + match[0].length;
    if (text.startsWith('null', start)) continue;
    let replacement = CENSORED_JSON;
    let end: number;
    const key = match[1]!;
    if (FREE_TEXT_FIELDS.has(key)) {
      end = valueEnd(text, start);
      // most metadata is empty
      if (end === start + 2 && text.charCodeAt(start) === 123) continue;
      const value = text.slice(start, end);
      // nothing to replace: the search goes on inside the value, for the redacted fields it may hold
      if (!mayHoldPersonalText(value)) continue;
      replacement = scrubbedFreeTextJson(value, key);
    } else {
      if (keptPlaces?.has(match.index + match[0].indexOf('"'))) continue;
      end = valueEnd(text, start);
    }
    out += text.slice(kept, start) + replacement;
    kept = end;
    REDACTED_KEY.lastIndex = end;
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/**
 * A free-text field's value (JSON text) as the parsed way writes it: its personal data replaced, then the
 * redacted fields it holds. Read and written again only when it may hold personal data, which is rare.
 */
function scrubbedFreeTextJson(value: string, field: string): string {
  try {
    return JSON.stringify(scrubFreeText(JSON.parse(value), field), redactField);
  } catch {
    return CENSORED_JSON;
  }
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
