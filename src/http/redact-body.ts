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

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value instanceof Uint8Array) return `[binary, ${value.length} bytes]`;
  if (value !== null && typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value);
    // a file part or stream of a form, not data: never walked
    if (prototype !== Object.prototype && prototype !== null) return '[not kept]';
    const out: Record<string, unknown> = {};
    for (const [field, inner] of Object.entries(value)) {
      out[field] = REDACTED_FIELDS.has(field) && inner !== null ? CENSOR : redactValue(inner);
    }
    return out;
  }
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
    text = JSON.stringify(redactValue(body));
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
