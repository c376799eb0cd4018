/**
 * PIX keys (chaves Pix), the identifiers the DICT directory resolves to a Brazilian account. Each key
 * type is checked and brought to the one canonical form the directory uses:
 * - CPF / CNPJ: valid check digits (alphanumeric CNPJ included), punctuated for people: 123.456.789-09,
 *   12.345.678/0001-95 (the directory itself holds them bare: see `dictKey`)
 * - EMAIL: a deliverable-looking address of at most 77 characters (the DICT limit), lower case
 * - PHONE: a Brazilian mobile number in E.164: +5511987654321 (PIX phone keys are mobile numbers)
 * - EVP: the random key, a UUID, lower case
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { normalizeCnpj, normalizeCpf } from './tax-id.ts';

export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

/** The longest e-mail key the PIX directory accepts. */
export const PIX_EMAIL_MAX_LENGTH = 77;

const EMAIL_LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** A valid e-mail key in lower case, or null. */
export function normalizePixEmail(value: string): string | null {
  const email = value.trim().toLowerCase();
  if (email.length === 0 || email.length > PIX_EMAIL_MAX_LENGTH) return null;
  const at = email.lastIndexOf('@');
  if (at <= 0 || at !== email.indexOf('@')) return null;
  const local = email.slice(0, at);
  const labels = email.slice(at + 1).split('.');
  if (local.length > 64 || !EMAIL_LOCAL.test(local)) return null;
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) return null;
  return TOP_LEVEL.test(labels[labels.length - 1]!) ? email : null;
}

const PHONE_CHARACTERS = /^\+?[\d\s().-]+$/;

/**
 * A Brazilian mobile number in E.164 (`+5511987654321`), or null. Accepts the international form with
 * or without spaces and punctuation, and the national form with area code: `(11) 98765-4321`.
 */
export function normalizePixPhone(value: string): string | null {
  const raw = value.trim();
  if (!PHONE_CHARACTERS.test(raw)) return null;
  const phone = parsePhoneNumberFromString(raw, 'BR');
  if (phone?.country !== 'BR' || !phone.isValid()) return null;
  return phone.getType() === 'MOBILE' ? phone.number : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A random key (EVP): a UUID in lower case, or null. */
export function normalizePixEvp(value: string): string | null {
  const evp = value.trim().toLowerCase();
  return UUID.test(evp) ? evp : null;
}

/** The key in its canonical form for its type, or null when it is not a valid key of that type. */
export function normalizePixKey(keyType: PixKeyType, value: string): string | null {
  switch (keyType) {
    case 'CPF':
      return normalizeCpf(value.trim());
    case 'CNPJ':
      return normalizeCnpj(value.trim());
    case 'EMAIL':
      return normalizePixEmail(value);
    case 'PHONE':
      return normalizePixPhone(value);
    case 'EVP':
      return normalizePixEvp(value);
  }
}

/**
 * The key as the DICT directory holds it, which is what a PSP's send API takes as the payee's key
 * (Efí, `favorecido.chave`: dev.efipay.com.br/docs/api-pix/envio-pagamento-pix): a CPF its 11 digits, a
 * CNPJ its 14 characters, both without punctuation; a phone in E.164 (`+55…`); an e-mail and a random
 * key (EVP) in lower case. `value` is a key as Ponte stores it (canonical, CPF/CNPJ punctuated); null
 * when it is not a valid key of its type.
 */
export function dictKey(keyType: PixKeyType, value: string): string | null {
  const canonical = normalizePixKey(keyType, value);
  if (canonical === null) return null;
  return keyType === 'CPF' || keyType === 'CNPJ'
    ? canonical.replace(/[^0-9A-Za-z]/g, '').toUpperCase()
    : canonical;
}

/** What a valid key of each type looks like, for error messages. */
export const PIX_KEY_EXPECTATION: Record<PixKeyType, string> = {
  CPF: 'must be a valid CPF, such as 123.456.789-09',
  CNPJ: 'must be a valid CNPJ, such as 12.345.678/0001-95',
  EMAIL: `must be a valid e-mail address of at most ${PIX_EMAIL_MAX_LENGTH} characters`,
  PHONE: 'must be a Brazilian mobile number, such as +5511987654321 or (11) 98765-4321',
  EVP: 'must be a random key (a UUID), such as 123e4567-e89b-42d3-a456-426614174000',
};
