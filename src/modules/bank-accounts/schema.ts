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
    state: text(100, 'For BRA: the two-letter UF code, such as SP'),
    postalCode: text(20, 'For BRA: the CEP, 8 digits, such as 01310-100'),
    country: Country(),
  },
  { additionalProperties: false },
);

export const CreateBankAccountBody = Type.Object(
  {
    customerId: Uuid('Owning customer'),
    name: text(200, 'Display name'),
    rail: Type.Literal('PIX'),
    currency: Type.Literal('BRL'),
    identifier: Type.Object(
      {
        keyType: PixKeyTypeSchema,
        keyValue: text(100, 'The PIX key; stored in the canonical form of its type'),
      },
      { additionalProperties: false },
    ),
    holder: Type.Object(
      {
        type: HolderType,
        relationship: HolderRelationship,
        legalName: text(200),
        taxId: text(32, 'CPF for an INDIVIDUAL holder, CNPJ (numeric or alphanumeric) for a BUSINESS holder'),
        incorporationDate: Type.Optional(CalendarDate('BUSINESS holders only')),
        email: Type.String({ format: 'email', maxLength: 254 }),
        address: AddressInput,
      },
      { additionalProperties: false },
    ),
    metadata: Type.Optional(MetadataInput()),
  },
  { additionalProperties: false },
);

export const BankAccountSchema = Type.Object(
  {
    id: Uuid('Bank account identifier'),
    customerId: Uuid('Owning customer'),
    name: Type.String({ description: 'Display name' }),
    type: Type.Literal('EXTERNAL'),
    rail: Type.Literal('PIX'),
    currency: Type.Literal('BRL'),
    identifier: Type.Object({
      keyType: PixKeyTypeSchema,
      keyValue: Type.String({
        description: 'Key value, formatted according to keyType',
        examples: ['12.345.678/0001-95'],
      }),
    }),
    holder: Type.Object({
      type: HolderType,
      relationship: HolderRelationship,
      legalName: Type.String(),
      taxId: Type.String({ examples: ['12.345.678/0001-95'] }),
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
