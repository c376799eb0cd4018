import type { FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream, type LoggerOptions } from 'pino';

/**
 * Structured logs (pino). Secrets and personal data never reach a log line, in two layers:
 * - `redact` removes the fields that carry them wherever they are logged: auth headers, keys, tokens,
 *   secrets, tax ids, and what database errors carry of the failed statement (PostgreSQL's `detail` and
 *   `where` echo row values; the embedded driver attaches the statement and its parameters: names,
 *   e-mails, PIX keys, addresses);
 * - every finished line is scrubbed of anything shaped like an API key, an operator token, a webhook
 *   signing secret, a hosted-page link token (verification, terms of service), an invitation link's token
 *   or a CPF/CNPJ, whatever field or message it ended up in.
 * Request lines carry `requestId`, the same id as the `x-request-id` header and problem bodies.
 */
/**
 * Each scrubber with a text that every one of its matches contains: a line without it is not scanned by
 * that pattern (a search for a few characters costs far less than a regular expression's pass, and these
 * run over every log line and every body the request log keeps).
 */
const SCRUBBERS: [mark: string, pattern: RegExp, replacement: string][] = [
  ['sk_', /\b(sk_(?:live|sandbox)_)[0-9A-Za-z]+/g, '$1[redacted]'],
  ['op_', /\bop_[0-9A-Za-z]{16,}/g, 'op_[redacted]'],
  ['whsec_', /\bwhsec_[A-Za-z0-9+/=_-]+/g, 'whsec_[redacted]'],
  ['/verify/', /(\/verify\/)[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, '$1[redacted]'],
  // terms-of-service links: whoever holds one accepts the platform's terms for the customer
  ['/tos/', /(\/tos\/)[A-Za-z0-9_%-]+/g, '$1[redacted]'],
  // invitation links of the dashboard (/invite/) and the console (/console/invite/): one grants access
  ['/invite/', /(\/invite\/)[A-Za-z0-9_-]+/g, '$1[redacted]'],
];

/**
 * CPF, then CNPJ (numeric or alphanumeric), punctuated or bare; never inside a JSON number (a value right
 * after ':' or within a decimal): one pass for both, with no mark to look for first. The character before
 * the number (or the start of the text) is matched and put back (`$1`), rather than looked behind for: a
 * pattern that starts with a look behind is tried at every position of the text, which cost half as much
 * again over a page of answers.
 */
const TAX_ID =
  /(^|[^\w./:-])(?:\d{3}\.?\d{3}\.?\d{3}-?\d{2}|[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}\/?[0-9A-Z]{4}-?\d{2})(?![\w/-]|\.\d)/g;

/** What replaces a tax id: the character before it, then the marker. */
export type TaxIdReplacer = (match: string, before: string, offset: number, text: string) => string;
/** The usual replacement: the marker in the tax id's place. */
export const replaceTaxId: TaxIdReplacer = (_match, before) => `${before}[redacted-tax-id]`;

/**
 * Every scrubber over `text`; `taxIds` decides each tax-id match (the request log's JSON documents keep
 * their numbers: `redact-body.ts`).
 */
export function scrubSecrets(text: string, taxIds: TaxIdReplacer = replaceTaxId): string {
  let out = text;
  for (const [mark, pattern, replacement] of SCRUBBERS) {
    if (out.includes(mark)) out = out.replace(pattern, replacement);
  }
  return out.replace(TAX_ID, taxIds);
}

/** Wraps a destination so that every line is scrubbed before it is written. */
export function scrubbingStream(destination: DestinationStream): DestinationStream {
  return { write: (line: string) => destination.write(scrubSecrets(line)) };
}

/** Fields that carry a secret or a tax id, redacted wherever they are logged (and in the request log). */
export const SECRET_FIELDS = [
  'key',
  'token',
  'secret',
  'signingSecret',
  'taxId',
  'tax_id',
  'keyValue',
] as const;

/**
 * Fields of the API's bodies that carry personal data (names, e-mails, birth dates, addresses, PIX keys,
 * account numbers, phones, and the Travel Rule's identifiers of an originator or a beneficiary: national
 * identifiers, account numbers, addresses, birth dates). Log lines never carry bodies; the request log
 * keeps bodies with these fields, and the secret fields above, redacted.
 */
export const PERSONAL_FIELDS = [
  'name',
  'legalName',
  'tradeName',
  'email',
  'birthDate',
  'address',
  'pixKey',
  'identifier',
  'nationalIdentifier',
  'accountNumber',
  'phone',
] as const;

const REDACT: LoggerOptions['redact'] = {
  paths: [
    'req.headers.authorization',
    'headers.authorization',
    'err.detail',
    'err.where',
    'err.internalQuery',
    'err.parameters',
    'err.params',
    'err.query',
    'err.queryOptions',
    'err.cause.detail',
    'err.cause.params',
    'err.cause.query',
    ...SECRET_FIELDS.map((field) => `*.${field}`),
    'key',
    'token',
    'secret',
    'taxId',
  ],
  censor: '[redacted]',
};

const stdout = () => pino.destination({ dest: 1, sync: true });

export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return { level, redact: REDACT, stream: scrubbingStream(stream ?? stdout()) };
}

/** The process logger (startup, workers, shutdown), with the same protections. */
export function processLogger(level: string, stream?: DestinationStream): pino.Logger {
  return pino({ level, redact: REDACT }, scrubbingStream(stream ?? stdout()));
}
