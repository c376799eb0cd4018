/**
 * PIX "copia e cola" payloads (BR Code): the EMV merchant-presented QR format of the Banco Central do
 * Brasil's "Manual de Padrões para Iniciação do Pix". One payload per charge: the platform's PIX key,
 * merchant name and city, the exact amount and a unique txid, closed by a CRC16-CCITT (0xFFFF) checksum.
 *
 * `pix-utils` assembles the payload. It takes the amount as a JavaScript number and prints it with
 * `toFixed(2)`; the number is parsed from the exact decimal string (at most 13 characters, well inside
 * what a double represents exactly to the cent), and the payload is read back to check that field 54
 * carries exactly that string before it is handed out.
 */
import { createStaticPix, hasError } from 'pix-utils';
import { formatAmount } from '../core/money.ts';

/** EMV field 54 holds at most 13 characters: 9999999999.99. */
export const PIX_MAX_AMOUNT_CENTS = 999_999_999_999n;
export const PIX_TXID_PATTERN = /^[A-Za-z0-9]{1,25}$/;
const MERCHANT_NAME_MAX = 25;
const MERCHANT_CITY_MAX = 15;
const PIX_KEY_MAX = 77;

/**
 * The key sandbox charges carry when no platform key is configured: a well-formed random key (EVP) that
 * no bank account owns, so a sandbox BR Code parses in any banking app and can never move real money.
 */
export const SANDBOX_PIX_KEY = '00000000-0000-4000-8000-000000000000';

export type PixCharge = {
  pixKey: string;
  merchantName: string;
  merchantCity: string;
  /** Cents of BRL, strictly positive, at most PIX_MAX_AMOUNT_CENTS. */
  amount: bigint;
  /** Reference the payer's bank echoes back with the payment: 1 to 25 letters and digits. */
  txid: string;
};

/** Reads the top-level EMV fields (id -> value) of a payload; throws on a malformed one. */
export function readEmvFields(payload: string): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < payload.length) {
    const id = payload.slice(at, at + 2);
    const length = Number(payload.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(payload.slice(at + 2, at + 4))) {
      throw new RangeError(`malformed EMV field at ${at}`);
    }
    const value = payload.slice(at + 4, at + 4 + length);
    if (value.length !== length) throw new RangeError(`truncated EMV field ${id}`);
    fields.set(id, value);
    at += 4 + length;
  }
  return fields;
}

/** Removes accents and keeps the characters the EMV alphanumeric special set allows, upper case. */
export function emvText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 .,\-/&]/g, '')
    .trim()
    .toUpperCase();
}

/** The problem with a merchant name, city or PIX key for a BR Code, or null when they fit. */
export function merchantProblem(merchant: { pixKey: string; merchantName: string; merchantCity: string }) {
  const name = emvText(merchant.merchantName);
  const city = emvText(merchant.merchantCity);
  if (name.length === 0 || name.length > MERCHANT_NAME_MAX)
    return `the merchant name must have 1 to ${MERCHANT_NAME_MAX} letters`;
  if (city.length === 0 || city.length > MERCHANT_CITY_MAX)
    return `the merchant city must have 1 to ${MERCHANT_CITY_MAX} letters`;
  if (merchant.pixKey.length === 0 || merchant.pixKey.length > PIX_KEY_MAX || /\s/.test(merchant.pixKey))
    return `the PIX key must have 1 to ${PIX_KEY_MAX} characters and no spaces`;
  return null;
}

export function buildPixBrCode(charge: PixCharge): string {
  if (charge.amount <= 0n || charge.amount > PIX_MAX_AMOUNT_CENTS) {
    throw new RangeError('a PIX charge carries an amount from 0.01 to 9999999999.99');
  }
  if (!PIX_TXID_PATTERN.test(charge.txid)) throw new RangeError('a txid has 1 to 25 letters and digits');
  const problem = merchantProblem(charge);
  if (problem) throw new RangeError(problem);
  const amount = formatAmount(charge.amount);
  const pix = createStaticPix({
    pixKey: charge.pixKey,
    merchantName: emvText(charge.merchantName),
    merchantCity: emvText(charge.merchantCity),
    transactionAmount: Number(amount),
    txid: charge.txid,
  });
  if (hasError(pix)) throw new RangeError('the PIX charge could not be encoded');
  const brCode = pix.toBRCode();
  const fields = readEmvFields(brCode);
  const additional = readEmvFields(fields.get('62') ?? '');
  if (fields.get('54') !== amount || additional.get('05') !== charge.txid) {
    throw new RangeError('the encoded PIX charge does not carry the exact amount and txid');
  }
  return brCode;
}
