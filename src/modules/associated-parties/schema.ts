import { Type } from 'typebox';
import { CalendarDate, Country, DateTime, ListQuery, StringEnum, Uuid } from '../../http/schemas.ts';
import { PARTY_ROLES, PARTY_TYPES } from '../verifications/kyb-rules.ts';
import { VerificationStatusSchema } from '../verifications/schema.ts';

const text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });

const AddressInput = Type.Object(
  {
    line1: text(200),
    city: text(100),
    state: text(100),
    postalCode: text(20),
    country: Country(),
  },
  { additionalProperties: false },
);

export const CreateAssociatedPartyBody = Type.Object(
  {
    type: StringEnum(PARTY_TYPES),
    role: StringEnum(PARTY_ROLES, {
      description:
        'UBO: an ultimate beneficial owner; SHAREHOLDER: an owner (an individual at 25% or more, counted ' +
        'through parents, is a UBO all the same); REPRESENTATIVE: acts for the company (at least one is verified)',
    }),
    name: text(200),
    taxId: text(64, 'For an address in BRA: a CPF (INDIVIDUAL) or CNPJ (BUSINESS) with valid check digits'),
    birthDate: Type.Optional(CalendarDate('INDIVIDUAL only')),
    incorporationDate: Type.Optional(CalendarDate('BUSINESS only')),
    email: Type.String({ format: 'email', maxLength: 254 }),
    address: AddressInput,
    ownershipPercentage: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 100,
        description:
          'UBO and SHAREHOLDER only (required for them): the share of the direct owner (the customer, or the ' +
          'parent party), 0 < p ≤ 100, at most two decimals',
        examples: [33.33],
      }),
    ),
    parentId: Type.Optional(
      Uuid('A BUSINESS party of the same customer, with an ownership, that owns this one (ownership chains)'),
    ),
  },
  { additionalProperties: false },
);

export const AssociatedPartySchema = Type.Object(
  {
    id: Uuid(),
    customerId: Uuid(),
    type: StringEnum(PARTY_TYPES),
    role: StringEnum(PARTY_ROLES),
    name: Type.String(),
    taxId: Type.String(),
    birthDate: Type.Optional(Type.String({ format: 'date' })),
    incorporationDate: Type.Optional(Type.String({ format: 'date' })),
    email: Type.String(),
    address: Type.Object({
      line1: Type.String(),
      city: Type.String(),
      state: Type.String(),
      postalCode: Type.String(),
      country: Type.String(),
    }),
    ownershipPercentage: Type.Optional(Type.Number()),
    effectiveOwnership: Type.Optional(
      Type.String({
        description:
          "The party's share of the customer, multiplied along its parents, two decimals rounded down",
        examples: ['30.00'],
      }),
    ),
    parentId: Type.Optional(Uuid()),
    verification: Type.Optional(
      Type.Object(
        {
          id: Uuid(),
          status: VerificationStatusSchema,
          level: Type.Literal('STANDARD'),
          link: Type.String({ format: 'uri', description: "The party's own hosted verification page" }),
        },
        { description: 'INDIVIDUAL parties only: each verifies on its own hosted link' },
      ),
    ),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'AssociatedParty' },
);

export const PartyParams = Type.Object(
  { id: Uuid('Customer identifier'), partyId: Uuid('Associated party identifier') },
  { additionalProperties: false },
);

export const ListPartiesQuery = Type.Object(ListQuery, { additionalProperties: false });
