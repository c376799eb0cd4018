/**
 * The rules a new bank account's fields must satisfy beyond their JSON shape. Every problem is reported
 * at once, each with a pointer into the body; the answer is the account's fields in canonical form.
 */
import { AppError, type FieldError } from '../../core/errors.ts';
import { isCountryCode } from '../../lib/countries.ts';
import { normalizePixKey, PIX_KEY_EXPECTATION, type PixKeyType } from '../../lib/pix-key.ts';
import { normalizeCnpj, normalizeCpf } from '../../lib/tax-id.ts';

export type HolderType = 'INDIVIDUAL' | 'BUSINESS';
export type HolderRelationship = 'SELF' | 'THIRD_PARTY';

export type Address = { line1: string; city: string; state: string; postalCode: string; country: string };

export type CreateBankAccountInput = {
  customerId: string;
  metadata?: Record<string, string> | undefined;
  name: string;
  rail: 'PIX';
  currency: 'BRL';
  identifier: { keyType: PixKeyType; keyValue: string };
  holder: {
    type: HolderType;
    relationship: HolderRelationship;
    legalName: string;
    taxId: string;
    incorporationDate?: string | undefined;
    email: string;
    address: Address;
  };
};

export type ValidBankAccount = {
  name: string;
  keyType: PixKeyType;
  keyValue: string;
  holder: {
    type: HolderType;
    relationship: HolderRelationship;
    legalName: string;
    taxId: string;
    incorporationDate: string | null;
    email: string;
    address: Address;
  };
};

/** The 26 states and the Federal District. */
const UF = new Set(
  'AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO'.split(' '),
);

const CEP = /^(\d{5})-?(\d{3})$/;

/** A tax id reduced to its characters, for comparing a formatted and an unformatted one. */
export const taxIdKey = (taxId: string): string => taxId.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

function validateAddress(address: Address, errors: FieldError[]): Address {
  const pointer = '/body/holder/address';
  const out: Address = {
    line1: address.line1.trim(),
    city: address.city.trim(),
    state: address.state.trim(),
    postalCode: address.postalCode.trim(),
    country: address.country,
  };
  for (const field of ['line1', 'city', 'state', 'postalCode'] as const) {
    if (out[field].length === 0)
      errors.push({ pointer: `${pointer}/${field}`, message: 'must not be blank' });
  }
  if (!isCountryCode(address.country)) {
    errors.push({ pointer: `${pointer}/country`, message: 'is not an ISO 3166-1 alpha-3 code' });
  } else if (address.country === 'BRA') {
    const state = out.state.toUpperCase();
    if (UF.has(state)) out.state = state;
    else if (out.state.length > 0)
      errors.push({
        pointer: `${pointer}/state`,
        message: 'must be a Brazilian state code (UF), such as SP',
      });
    const cep = CEP.exec(out.postalCode);
    if (cep) out.postalCode = `${cep[1]}-${cep[2]}`;
    else if (out.postalCode.length > 0)
      errors.push({
        pointer: `${pointer}/postalCode`,
        message: 'must be a CEP of 8 digits, such as 01310-100',
      });
  }
  return out;
}

/** Checks and normalises a new account's fields; throws one 400 listing every problem. */
export function validateBankAccount(input: CreateBankAccountInput, today: string): ValidBankAccount {
  const errors: FieldError[] = [];
  const name = input.name.trim();
  if (name.length === 0) errors.push({ pointer: '/body/name', message: 'must not be blank' });

  const { keyType } = input.identifier;
  const keyValue = normalizePixKey(keyType, input.identifier.keyValue);
  if (keyValue === null)
    errors.push({ pointer: '/body/identifier/keyValue', message: PIX_KEY_EXPECTATION[keyType] });

  const { holder } = input;
  const legalName = holder.legalName.trim();
  if (legalName.length === 0)
    errors.push({ pointer: '/body/holder/legalName', message: 'must not be blank' });
  const taxId = holder.type === 'INDIVIDUAL' ? normalizeCpf(holder.taxId) : normalizeCnpj(holder.taxId);
  if (taxId === null) {
    errors.push({
      pointer: '/body/holder/taxId',
      message:
        holder.type === 'INDIVIDUAL'
          ? 'must be a valid CPF for an INDIVIDUAL holder'
          : 'must be a valid CNPJ for a BUSINESS holder',
    });
  }
  if (holder.incorporationDate !== undefined) {
    if (holder.type !== 'BUSINESS')
      errors.push({ pointer: '/body/holder/incorporationDate', message: 'is only for BUSINESS holders' });
    else if (holder.incorporationDate > today)
      errors.push({ pointer: '/body/holder/incorporationDate', message: 'must not be in the future' });
  }
  const address = validateAddress(holder.address, errors);

  if (errors.length > 0) throw new AppError('invalid_request', 'The request body is invalid', { errors });
  return {
    name,
    keyType,
    keyValue: keyValue!,
    holder: {
      type: holder.type,
      relationship: holder.relationship,
      legalName,
      taxId: taxId!,
      incorporationDate: holder.incorporationDate ?? null,
      email: holder.email.trim(),
      address,
    },
  };
}
