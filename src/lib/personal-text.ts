/**
 * Personal data written inside free text (a partner's metadata, a memo, a comment): what the request log
 * must not keep in clear although no field's name says it is there. Each kind is replaced by a marker
 * naming it:
 * - e-mail addresses;
 * - CPF and CNPJ (numeric or alphanumeric) in any spacing or punctuation, told by their check digits;
 * - phone numbers, as libphonenumber-js finds them (Brazil's numbering plan for numbers written without
 *   their country code);
 * - any other run of 11 digits or more (a tax id with a wrong check digit, a card or account number);
 * - passport and identity document numbers: the number after a passport word ("passport no. FZ123456",
 *   "passaporte: FZ123456"), and the whole value, when it has a digit, of a field whose name says it
 *   holds one (`passportNumber`, `documentId`, `rg`...).
 *
 * `mayHoldPersonalText` tells cheaply whether a text can hold any of them: a text it says no to comes out
 * of `scrubPersonalText` unchanged, so the request log runs the full scrub (a phone search costs tens of
 * microseconds) only where it can change something.
 */
import { findPhoneNumbersInText } from 'libphonenumber-js/max';
import { normalizeCnpj, normalizeCpf } from './tax-id.ts';

const EMAIL = /[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;

/** What may stand between two digits of one number: blanks, dots, dashes, slashes. */
const SEPARATOR = String.raw`[\s.\/\-–—_]{0,3}`;
/** What may stand between two digits of a phone number besides: brackets, a plus. */
const PHONE_SEPARATOR = String.raw`[\s().\/+\-–—_]{0,3}`;
/** A number of at least 7 digits (the shortest phone number with its area code, every tax id). */
const DIGIT_RUN_7 = new RegExp(String.raw`\d(?:${PHONE_SEPARATOR}\d){6}`);
/** A whole run of digits and separators, from a digit to a digit. */
const DIGIT_RUN = new RegExp(String.raw`(?<!\p{N})\d(?:${SEPARATOR}\d)*`, 'gu');
/** An alphanumeric CNPJ in any spacing: 12 letters or digits in its groups, then its 2 check digits. */
const ALPHANUMERIC_CNPJ = new RegExp(
  String.raw`(?<![\p{L}\p{N}])[0-9A-Z]{2}${SEPARATOR}[0-9A-Z]{3}${SEPARATOR}[0-9A-Z]{3}${SEPARATOR}[0-9A-Z]{4}${SEPARATOR}\d{2}(?![\p{L}\p{N}])`,
  'gu',
);

/** Words for a passport in the languages a partner's customers write in. */
const PASSPORT_WORD = `pass(?:port|aporte|aporto|eport)|pasaporte|reisepass`;
/** Parts of a field's name that say it holds an identity document's number. */
const IDENTITY_WORD = `${PASSPORT_WORD}|identif|identity|identidade|document|national.?id`;
const IDENTITY_NAME = `rg|ssn|dni|nif|cnh|id.?(?:number|no)`;
const IDENTITY_FIELD = new RegExp(`${IDENTITY_WORD}|^(?:${IDENTITY_NAME})$`, 'i');
/**
 * A passport word, what may follow it ("number", "nº", blanks and punctuation), then the number: letters
 * and digits, at least 5, one of them a digit.
 */
const PASSPORT_NUMBER = new RegExp(
  String.raw`((?:${PASSPORT_WORD})\p{L}*[^\p{L}\p{N}]{0,4}(?:(?:n[º°o]?|nr|num(?:ber|ero|éro)?|número)[.:#\s][^\p{L}\p{N}]{0,4})?)(?=[\p{L}\p{N}]*\p{N})[\p{L}\p{N}]{5,20}(?![\p{L}\p{N}])`,
  'giu',
);

/**
 * The words of identity documents, in a text or in a JSON document holding it (a field's name alone is
 * a key there, between quotes). ASCII words: no Unicode mode, which costs more per character.
 */
const IDENTITY_HINT = new RegExp(`${IDENTITY_WORD}|\\b(?:${IDENTITY_NAME})\\b`, 'i');
/** An alphanumeric CNPJ's hint: two letters or digits, then more with at most a separator between. */
const ALPHANUMERIC_CNPJ_HINT = new RegExp(ALPHANUMERIC_CNPJ.source.replace('(?<![\\p{L}\\p{N}])', ''), 'u');

/**
 * Whether `text` may hold personal data `scrubPersonalText` would replace: a text it says no to comes out
 * unchanged. `text` may be JSON (keys, strings and all): a hint anywhere in it, a backslash (an escape
 * hides what it encodes) or an `@` says yes. Each hint is searched for on its own: one pattern of them
 * all cost several times more.
 */
export function mayHoldPersonalText(text: string): boolean {
  return (
    text.includes('@') ||
    text.includes('\\') ||
    DIGIT_RUN_7.test(text) ||
    IDENTITY_HINT.test(text) ||
    ALPHANUMERIC_CNPJ_HINT.test(text)
  );
}

const digitsOf = (run: string) => run.replace(/\D/g, '');

/** A run of digits as a tax id (valid CPF or CNPJ), else null. */
function taxIdMarker(run: string): string | null {
  const digits = digitsOf(run);
  if (digits.length === 11 && normalizeCpf(digits)) return '[redacted-tax-id]';
  if (digits.length === 14 && normalizeCnpj(digits)) return '[redacted-tax-id]';
  return null;
}

/** A UUID: an id of this API or the partner's, never personal data, whatever digits it has. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** `pattern`'s matches replaced, except those that start inside a UUID. */
function replaceOutsideIds(text: string, pattern: RegExp, replace: (match: string) => string): string {
  const ids = text.includes('-') ? [...text.matchAll(UUID)] : [];
  if (ids.length === 0) return text.replace(pattern, replace);
  return text.replace(pattern, (match: string, offset: number) =>
    ids.some((id) => offset >= id.index && offset < id.index + id[0].length) ? match : replace(match),
  );
}

/** Phone numbers replaced, from the last so that the places found stay right. */
function scrubPhones(text: string): string {
  const found = findPhoneNumbersInText(text, { defaultCountry: 'BR' });
  let out = text;
  for (let i = found.length - 1; i >= 0; i--) {
    const { startsAt, endsAt } = found[i]!;
    out = `${out.slice(0, startsAt)}[redacted-phone]${out.slice(endsAt)}`;
  }
  return out;
}

/**
 * `text` with the personal data it holds replaced by markers. `field` is the name of the field the text
 * is the value of, when it has one: a field named for an identity document is replaced whole when it has
 * a digit.
 */
export function scrubPersonalText(text: string, field?: string): string {
  if (field !== undefined && IDENTITY_FIELD.test(field) && /\p{N}/u.test(text)) return '[redacted-document]';
  if (!mayHoldPersonalText(text)) return text;
  let out = text.includes('@') ? text.replace(EMAIL, '[redacted-email]') : text;
  if (DIGIT_RUN_7.test(out)) {
    out = replaceOutsideIds(out, DIGIT_RUN, (run) => taxIdMarker(run) ?? run);
    out = scrubPhones(out);
    out = replaceOutsideIds(out, DIGIT_RUN, (run) =>
      digitsOf(run).length >= 11 ? '[redacted-number]' : run,
    );
  }
  out = out.replace(ALPHANUMERIC_CNPJ, (run) => (normalizeCnpj(run) ? '[redacted-tax-id]' : run));
  return out.replace(PASSPORT_NUMBER, '$1[redacted-document]');
}
