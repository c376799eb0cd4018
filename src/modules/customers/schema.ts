import { Type } from 'typebox';
import {
  CalendarDate,
  Country,
  DateTime,
  ListQuery,
  Metadata,
  MetadataInput,
  Nullable,
  StringEnum,
  Uuid,
} from '../../http/schemas.ts';
import { REQUIREMENT_NAMES, REQUIREMENT_STATUSES } from '../verifications/kyb-rules.ts';
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
  {
    additionalProperties: false,
  },
);

export const RequirementsSchema = Type.Array(
  Type.Object({
    name: StringEnum(REQUIREMENT_NAMES, {
      description:
        'TERMS_OF_SERVICE; IDENTITY_DOCUMENT and SELFIE (a person, the customer or an associated party); ' +
        'COMPANY_DOCUMENT (ARTICLES_OF_INCORPORATION or SHAREHOLDER_REGISTRY); REPRESENTATIVE (at least one, approved)',
    }),
    status: StringEnum(REQUIREMENT_STATUSES),
    associatedPartyId: Type.Optional(Uuid('The associated party the requirement is about')),
  }),
  { description: 'What compliance still needs, and where each item stands' },
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
    tosAcceptedAt: Nullable(
      DateTime('When the customer accepted the terms of service (POST /customers/{id}/tos); null until then'),
    ),
    requirements: RequirementsSchema,
    metadata: Metadata(),
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
