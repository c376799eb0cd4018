/**
 * Bodies as the request log keeps them: the logger's secret and personal-data fields replaced by
 * `[redacted]` at any depth, the logger's scrubbers run over what is left (API keys, signing secrets,
 * hosted-page and invitation tokens, CPF/CNPJ wherever they appear), and the result cut to a bounded size
 * with a marker saying so. A body that is not JSON is not kept, only its size.
 */
import { PERSONAL_FIELDS, SECRET_FIELDS, scrubSecrets } from './logger.ts';

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
  return bounded(scrubSecrets(text));
}

/** A body as sent (a response's payload text), redacted and bounded; null when empty. */
export function redactBodyText(payload: string | undefined): string | null {
  if (payload === undefined || payload.length === 0) return null;
  if (payload.length > MAX_PARSED_BODY) return `[body of ${payload.length} characters, not kept]`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    // not JSON (a CSV export, a document): its fields cannot be told apart, so none of it is kept
    return `[non-JSON body of ${payload.length} characters, not kept]`;
  }
  return redactParsedBody(parsed);
}
