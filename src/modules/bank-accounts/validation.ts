/**
 * The rules a new bank account's fields must satisfy beyond their JSON shape. Every problem is reported
 * at once, each with a pointer into the body; the answer is the account's fields in canonical form.
 */
import { AppError, type FieldError } from '../../core/errors.ts';
import { isCountryCode } from '../../lib/countries.ts';
import { normalizePixKey, PIX_KEY_EXPECTATION, type PixKeyType } from '../../lib/pix-key.ts';
import { normalizeCnpj, normalizeCpf } from '../../lib/tax-id.ts';
import { type UsAccountType, type UsRail, validateUsBankIdentifier } from '../../lib/us-bank-account.ts';

export type HolderType = 'INDIVIDUAL' | 'BUSINESS';
export type HolderRelationship = 'SELF' | 'THIRD_PARTY';

export type Address = { line1: string; city: string; state: string; postalCode: string; country: string };

export type BankAccountRail = 'PIX' | UsRail;
export type BankAccountCurrency = 'BRL' | 'USD';

/** The body as its schema admits it: the identifier's fields of every rail, each optional there. */
export type CreateBankAccountInput = {
  customerId: string;
  metadata?: Record<string, string> | undefined;
  name: string;
  rail: BankAccountRail;
  currency: BankAccountCurrency;
  identifier: {
    keyType?: PixKeyType | undefined;
    keyValue?: string | undefined;
    routingNumber?: string | undefined;
    accountNumber?: string | undefined;
    accountType?: UsAccountType | undefined;
  };
  holder: {
    type: HolderType;
    relationship: HolderRelationship;
    legalName: string;
    taxId?: string | undefined;
    incorporationDate?: string | undefined;
    email: string;
    address: Address;
  };
};

/** The PIX key of a PIX account, or the US bank account of an ACH or WIRE one; the other rail's nulls. */
export type ValidIdentifier =
  | {
      rail: 'PIX';
      currency: 'BRL';
      keyType: PixKeyType;
      keyValue: string;
      routingNumber: null;
      accountNumber: null;
      accountType: null;
    }
  | {
      rail: UsRail;
      currency: 'USD';
      keyType: null;
      keyValue: null;
      routingNumber: string;
      accountNumber: string;
      accountType: UsAccountType;
    };

export type ValidBankAccount = {
  name: string;
  identifier: ValidIdentifier;
  holder: {
    type: HolderType;
    relationship: HolderRelationship;
    legalName: string;
    /** Always set for PIX (a CPF or CNPJ); null for an ACH or WIRE holder given without one. */
    taxId: string | null;
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

/** The 50 states, the District of Columbia, the territories and the military "states" (USPS codes). */
const USPS_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND ' +
    'OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC AS GU MP PR VI UM AA AE AP'
  ).split(' '),
);

const ZIP = /^(\d{5})(?:-?(\d{4}))?$/;

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
  } else if (address.country === 'USA') {
    const state = out.state.toUpperCase();
    if (USPS_STATES.has(state)) out.state = state;
    else if (out.state.length > 0)
      errors.push({
        pointer: `${pointer}/state`,
        message: 'must be a US state code (USPS), such as NY',
      });
    const zip = ZIP.exec(out.postalCode);
    if (zip) out.postalCode = zip[2] ? `${zip[1]}-${zip[2]}` : zip[1]!;
    else if (out.postalCode.length > 0)
      errors.push({
        pointer: `${pointer}/postalCode`,
        message: 'must be a ZIP code, such as 10001 or 10001-2345',
      });
  }
  return out;
}

/** A PIX body's key, in canonical form; its problems are added to `errors`. */
function validatePixIdentifier(
  identifier: CreateBankAccountInput['identifier'],
  errors: FieldError[],
): ValidIdentifier | null {
  const { keyType } = identifier;
  if (keyType === undefined || identifier.keyValue === undefined) {
    // the schema requires both for PIX; kept here for callers that bypass it
    for (const field of ['keyType', 'keyValue'] as const)
      if (identifier[field] === undefined)
        errors.push({ pointer: `/body/identifier/${field}`, message: 'is required' });
    return null;
  }
  const keyValue = normalizePixKey(keyType, identifier.keyValue);
  if (keyValue === null) {
    errors.push({ pointer: '/body/identifier/keyValue', message: PIX_KEY_EXPECTATION[keyType] });
    return null;
  }
  return {
    rail: 'PIX',
    currency: 'BRL',
    keyType,
    keyValue,
    routingNumber: null,
    accountNumber: null,
    accountType: null,
  };
}

/** An ACH or WIRE body's US bank account, in canonical form; its problems are added to `errors`. */
function validateUsIdentifier(
  rail: UsRail,
  identifier: CreateBankAccountInput['identifier'],
  errors: FieldError[],
): ValidIdentifier | null {
  const { routingNumber, accountNumber, accountType } = identifier;
  if (routingNumber === undefined || accountNumber === undefined || accountType === undefined) {
    for (const field of ['routingNumber', 'accountNumber', 'accountType'] as const)
      if (identifier[field] === undefined)
        errors.push({ pointer: `/body/identifier/${field}`, message: 'is required' });
    return null;
  }
  const checked = validateUsBankIdentifier({ routingNumber, accountNumber, accountType }, rail);
  if (checked.identifier === null) {
    errors.push(...checked.errors);
    return null;
  }
  return { rail, currency: 'USD', keyType: null, keyValue: null, ...checked.identifier };
}

/** The fields of the other rails' identifier, refused (the schema does too). */
const FOREIGN_FIELDS: Record<BankAccountRail, readonly (keyof CreateBankAccountInput['identifier'])[]> = {
  PIX: ['routingNumber', 'accountNumber', 'accountType'],
  ACH: ['keyType', 'keyValue'],
  WIRE: ['keyType', 'keyValue'],
};

const RAIL_CURRENCY: Record<BankAccountRail, BankAccountCurrency> = { PIX: 'BRL', ACH: 'USD', WIRE: 'USD' };

/** A PIX holder's CPF (INDIVIDUAL) or CNPJ (BUSINESS), punctuated; null with an error when it is not one. */
function pixHolderTaxId(holder: CreateBankAccountInput['holder'], errors: FieldError[]): string | null {
  if (holder.taxId === undefined) {
    errors.push({ pointer: '/body/holder/taxId', message: 'is required for rail PIX' });
    return null;
  }
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
  return taxId;
}

/** An ACH or WIRE holder's tax id as written (an SSN, an EIN, a foreign id), trimmed; null when none. */
function usHolderTaxId(holder: CreateBankAccountInput['holder'], errors: FieldError[]): string | null {
  if (holder.taxId === undefined) return null;
  const taxId = holder.taxId.trim();
  if (taxId.length === 0) {
    errors.push({ pointer: '/body/holder/taxId', message: 'must not be blank' });
    return null;
  }
  return taxId;
}

/** Checks and normalises a new account's fields; throws one 400 listing every problem. */
export function validateBankAccount(input: CreateBankAccountInput, today: string): ValidBankAccount {
  const errors: FieldError[] = [];
  const name = input.name.trim();
  if (name.length === 0) errors.push({ pointer: '/body/name', message: 'must not be blank' });

  const { rail } = input;
  if (input.currency !== RAIL_CURRENCY[rail])
    errors.push({ pointer: '/body/currency', message: `must be ${RAIL_CURRENCY[rail]} for rail ${rail}` });
  for (const field of FOREIGN_FIELDS[rail])
    if (input.identifier[field] !== undefined)
      errors.push({
        pointer: `/body/identifier/${field}`,
        message: `is not a field of a ${rail} identifier`,
      });
  const identifier =
    rail === 'PIX'
      ? validatePixIdentifier(input.identifier, errors)
      : validateUsIdentifier(rail, input.identifier, errors);

  const { holder } = input;
  const legalName = holder.legalName.trim();
  if (legalName.length === 0)
    errors.push({ pointer: '/body/holder/legalName', message: 'must not be blank' });
  const taxId = rail === 'PIX' ? pixHolderTaxId(holder, errors) : usHolderTaxId(holder, errors);
  if (holder.incorporationDate !== undefined) {
    if (holder.type !== 'BUSINESS')
      errors.push({ pointer: '/body/holder/incorporationDate', message: 'is only for BUSINESS holders' });
    else if (holder.incorporationDate > today)
      errors.push({ pointer: '/body/holder/incorporationDate', message: 'must not be in the future' });
  }
  const address = validateAddress(holder.address, errors);

  if (errors.length > 0 || identifier === null)
    throw new AppError('invalid_request', 'The request body is invalid', { errors });
  return {
    name,
    identifier,
    holder: {
      type: holder.type,
      relationship: holder.relationship,
      legalName,
      taxId,
      incorporationDate: holder.incorporationDate ?? null,
      email: holder.email.trim(),
      address,
    },
  };
}
