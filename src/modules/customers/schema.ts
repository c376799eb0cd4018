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
import { VerificationStatusSchema } from '../verifications/schema.ts';

export const CustomerType = StringEnum(['INDIVIDUAL', 'BUSINESS']);

export const CreateCustomerBody = Type.Object(
  {
    type: CustomerType,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    taxId: Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        'For BRA: a CPF (INDIVIDUAL) or CNPJ (BUSINESS, numeric or alphanumeric) with valid check digits',
    }),
    country: Country(),
    email: Type.String({ format: 'email', maxLength: 254 }),
    birthDate: Type.Optional(CalendarDate('INDIVIDUAL only')),
    incorporationDate: Type.Optional(CalendarDate('BUSINESS only')),
    metadata: Type.Optional(MetadataInput()),
  },
  { additionalProperties: false },
);

export const CustomerSchema = Type.Object(
  {
    id: Uuid(),
    type: CustomerType,
    name: Type.String(),
    taxId: Type.String(),
    country: Type.String(),
    email: Type.String(),
    birthDate: Type.Optional(Type.String({ format: 'date' })),
    incorporationDate: Type.Optional(Type.String({ format: 'date' })),
    verification: Type.Object({
      id: Uuid(),
      status: VerificationStatusSchema,
      level: Type.Literal('STANDARD'),
      link: Type.String({ format: 'uri', description: 'Hosted verification page for the end customer' }),
    }),
    transactionLimits: Type.Optional(
      Type.Object({
        single: Type.Object({ max: Type.String() }),
        daily: Type.Object({ max: Type.String(), used: Type.String(), remaining: Type.String() }),
        monthly: Type.Object({ max: Type.String(), used: Type.String(), remaining: Type.String() }),
      }),
    ),
    metadata: Type.Optional(Metadata()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'Customer' },
);

export const ListCustomersQuery = Type.Object(ListQuery, { additionalProperties: false });

export const GetCustomerQuery = Type.Object(
  { includeTransactionLimits: Type.Optional(Type.Boolean({ default: false })) },
  { additionalProperties: false },
);
