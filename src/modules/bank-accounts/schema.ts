import { Type } from 'typebox';
import {
  CalendarDate,
  Country,
  DateTime,
  ListQuery,
  Metadata,
  MetadataInput,
  StringEnum,
  Uuid,
} from '../../http/schemas.ts';
import { PIX_KEY_TYPES } from '../../lib/pix-key.ts';
import { US_ACCOUNT_TYPES } from '../../lib/us-bank-account.ts';

export const BANK_ACCOUNT_RAILS = ['PIX', 'ACH', 'WIRE'] as const;
export const BANK_ACCOUNT_CURRENCIES = ['BRL', 'USD'] as const;

export const PixKeyTypeSchema = StringEnum(PIX_KEY_TYPES, { description: 'Kind of PIX key' });
export const HolderType = StringEnum(['INDIVIDUAL', 'BUSINESS']);
export const HolderRelationship = StringEnum(['SELF', 'THIRD_PARTY'], {
  description: 'SELF: the customer holds the account; THIRD_PARTY: someone else does',
});

const text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });

const AddressInput = Type.Object(
  {
    line1: text(200),
    city: text(100),
    state: text(
      100,
      'For BRA: the two-letter UF code, such as SP; for USA: the two-letter USPS code, such as NY',
    ),
    postalCode: text(
      20,
      'For BRA: the CEP, 8 digits, such as 01310-100; for USA: the ZIP code, such as 10001 or 10001-2345',
    ),
    country: Country(),
  },
  { additionalProperties: false },
);

const US_RAILS = ['ACH', 'WIRE'];

const HolderInput = Type.Object(
  {
    type: HolderType,
    relationship: HolderRelationship,
    legalName: text(200),
    taxId: Type.Optional(
      text(
        32,
        'PIX (required): CPF for an INDIVIDUAL holder, CNPJ (numeric or alphanumeric) for a BUSINESS ' +
          "holder. ACH and WIRE (optional): the holder's tax id as written, such as an SSN or EIN",
      ),
    ),
    incorporationDate: Type.Optional(CalendarDate('BUSINESS holders only')),
    email: Type.String({ format: 'email', maxLength: 254 }),
    address: AddressInput,
  },
  { additionalProperties: false },
);

const bodyFields = {
  customerId: Uuid('Owning customer'),
  name: text(200, 'Display name'),
  rail: StringEnum(BANK_ACCOUNT_RAILS, {
    description: 'PIX pays BRL to a PIX key; ACH and WIRE pay USD to a US bank account',
  }),
  currency: StringEnum(BANK_ACCOUNT_CURRENCIES, { description: 'BRL for PIX; USD for ACH and WIRE' }),
  identifier: Type.Object(
    {
      keyType: Type.Optional(PixKeyTypeSchema),
      keyValue: Type.Optional(text(100, 'The PIX key; stored in the canonical form of its type')),
      routingNumber: Type.Optional(
        text(20, 'ACH and WIRE: the ABA routing number of the bank, 9 digits with a valid check digit'),
      ),
      accountNumber: Type.Optional(
        text(
          64,
          'ACH and WIRE: the account number at that bank, letters and digits (spaces and hyphens are ' +
            'removed), at most 17 for ACH and 34 for WIRE',
        ),
      ),
      accountType: Type.Optional(
        StringEnum(US_ACCOUNT_TYPES, { description: 'ACH and WIRE: the kind of US bank account' }),
      ),
    },
    {
      additionalProperties: false,
      description:
        'PIX: {keyType, keyValue}. ACH and WIRE: {routingNumber, accountNumber, accountType}. The ' +
        "fields of the other rails' identifier are refused.",
    },
  ),
  holder: HolderInput,
  metadata: Type.Optional(MetadataInput()),
};

/**
 * Each field of an object, unconstrained. The condition and the branches below constrain a few fields
 * but name them all, so that a reader that refuses the fields a schema does not name (the strict example
 * checks of the OpenAPI linters) reads each of them as the whole body.
 */
const named = (fields: object) => Object.fromEntries(Object.keys(fields).map((key) => [key, {}]));

/**
 * One body for every rail. `rail` decides the rest: PIX pays BRL to a PIX key (`identifier: {keyType,
 * keyValue}`, the holder's CPF or CNPJ required); ACH and WIRE pay USD to a US bank account
 * (`identifier: {routingNumber, accountNumber, accountType}`, the holder's taxId optional). The pairing is
 * stated in the schema itself (`if`/`then`/`else` on `rail`), so that a mismatch is answered with a
 * pointer at the field in question.
 */
export const CreateBankAccountBody = Type.Object(bodyFields, {
  additionalProperties: false,
  if: { properties: { ...named(bodyFields), rail: { enum: US_RAILS } }, required: ['rail'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's conditional keyword; the schema is never awaited
  then: {
    properties: {
      ...named(bodyFields),
      currency: { const: 'USD' },
      identifier: {
        properties: { routingNumber: {}, accountNumber: {}, accountType: {} },
        required: ['routingNumber', 'accountNumber', 'accountType'],
        additionalProperties: false,
      },
    },
  },
  else: {
    properties: {
      ...named(bodyFields),
      currency: { const: 'BRL' },
      identifier: {
        properties: { keyType: {}, keyValue: {} },
        required: ['keyType', 'keyValue'],
        additionalProperties: false,
      },
      holder: { properties: named(HolderInput.properties), required: ['taxId'] },
    },
  },
});

const PixIdentifier = Type.Object(
  {
    keyType: PixKeyTypeSchema,
    keyValue: Type.String({
      description: 'Key value, formatted according to keyType',
      examples: ['12.345.678/0001-95'],
    }),
  },
  { title: 'PIX key', description: 'The identifier of a PIX account' },
);

const UsBankIdentifier = Type.Object(
  {
    routingNumber: Type.String({ description: 'ABA routing number, 9 digits', examples: ['021000021'] }),
    accountNumber: Type.String({
      description: 'The account number at that bank, without spaces or hyphens',
      examples: ['000123456789'],
    }),
    accountType: StringEnum(US_ACCOUNT_TYPES),
  },
  { title: 'US bank account', description: 'The identifier of an ACH or WIRE account' },
);

export const BankAccountSchema = Type.Object(
  {
    id: Uuid('Bank account identifier'),
    customerId: Uuid('Owning customer'),
    name: Type.String({ description: 'Display name' }),
    type: Type.Literal('EXTERNAL'),
    rail: StringEnum(BANK_ACCOUNT_RAILS),
    currency: StringEnum(BANK_ACCOUNT_CURRENCIES, { description: 'BRL for PIX; USD for ACH and WIRE' }),
    identifier: Type.Union([PixIdentifier, UsBankIdentifier], {
      description: 'PIX: {keyType, keyValue}; ACH and WIRE: {routingNumber, accountNumber, accountType}',
    }),
    holder: Type.Object({
      type: HolderType,
      relationship: HolderRelationship,
      legalName: Type.String(),
      taxId: Type.Optional(
        Type.String({
          description: 'Always present for PIX; absent for an ACH or WIRE holder given without one',
          examples: ['12.345.678/0001-95'],
        }),
      ),
      incorporationDate: Type.Optional(Type.String({ format: 'date' })),
      email: Type.String(),
      address: Type.Object({
        line1: Type.String(),
        city: Type.String(),
        state: Type.String(),
        postalCode: Type.String(),
        country: Type.String({ description: 'ISO 3166-1 alpha-3 country code' }),
      }),
      verification: Type.Object({
        status: Type.String({
          description:
            'APPROVED for the customer themself once the customer is approved; UNDER_VERIFICATION until an operator screens the holder',
          examples: ['APPROVED'],
        }),
        level: Type.String({ examples: ['BASIC'] }),
      }),
    }),
    metadata: Type.Optional(Metadata()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'BankAccount' },
);

export const ListBankAccountsQuery = Type.Object(
  { customerId: Type.Optional(Uuid('Only the accounts of this customer')), ...ListQuery },
  { additionalProperties: false },
);
