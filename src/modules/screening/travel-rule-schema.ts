/**
 * Travel Rule data (FATF Recommendation 16) on stablecoin transfers and deposits: what the partner sends,
 * and what the transaction shows, in the IVMS101 data model (originator, beneficiary, their VASPs).
 */
import { Type } from 'typebox';
import { CalendarDate, Country, StringEnum } from '../../http/schemas.ts';

export const WALLET_TYPES = ['SELF_HOSTED', 'HOSTED'] as const;

export const TravelRulePartyInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Full legal name' }),
    type: Type.Optional(StringEnum(['INDIVIDUAL', 'BUSINESS'], { description: 'Default INDIVIDUAL' })),
    country: Type.Optional(Country()),
    birthDate: Type.Optional(CalendarDate('INDIVIDUAL only; used for screening')),
    nationalIdentifier: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Tax or national identity number' }),
    ),
  },
  { additionalProperties: false },
);

export const VaspInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Legal name of the counterparty VASP' }),
    lei: Type.Optional(
      Type.String({ pattern: '^[0-9A-Z]{18}[0-9]{2}$', description: 'Legal Entity Identifier' }),
    ),
  },
  { additionalProperties: false },
);

export const TransferTravelRuleInput = Type.Object(
  {
    beneficiary: TravelRulePartyInput,
    walletType: StringEnum(WALLET_TYPES, {
      description:
        'SELF_HOSTED: the beneficiary holds the keys; HOSTED: a VASP holds the wallet (vasp required)',
    }),
    vasp: Type.Optional(VaspInput),
  },
  {
    additionalProperties: false,
    description:
      'Travel Rule data: required for a transfer to an external address worth at least PONTE_TRAVEL_RULE_THRESHOLD USD',
  },
);

export const DepositTravelRuleBody = Type.Object(
  {
    originator: TravelRulePartyInput,
    walletType: StringEnum(WALLET_TYPES, {
      description: 'SELF_HOSTED: the originator holds the keys; HOSTED: a VASP sent it (vasp required)',
    }),
    vasp: Type.Optional(VaspInput),
  },
  { additionalProperties: false },
);

const NameIdentifier = Type.Object({
  primaryIdentifier: Type.String(),
  secondaryIdentifier: Type.Optional(Type.String()),
  nameIdentifierType: Type.Literal('LEGL'),
});
const LegalNameIdentifier = Type.Object({
  legalPersonName: Type.String(),
  legalPersonNameIdentifierType: Type.Literal('LEGL'),
});
const NationalIdentification = Type.Object({
  nationalIdentifier: Type.String(),
  nationalIdentifierType: Type.String(),
});
const Person = Type.Union([
  Type.Object({
    naturalPerson: Type.Object({
      name: Type.Object({ nameIdentifier: Type.Array(NameIdentifier) }),
      nationalIdentification: Type.Optional(NationalIdentification),
    }),
  }),
  Type.Object({
    legalPerson: Type.Object({
      name: Type.Object({ nameIdentifier: Type.Array(LegalNameIdentifier) }),
      nationalIdentification: Type.Optional(NationalIdentification),
    }),
  }),
]);

export const TravelRuleSchema = Type.Object(
  {
    walletType: StringEnum(WALLET_TYPES),
    originator: Type.Object({
      originatorPersons: Type.Array(Person),
      accountNumber: Type.Array(Type.String()),
    }),
    beneficiary: Type.Object({
      beneficiaryPersons: Type.Array(Person),
      accountNumber: Type.Array(Type.String()),
    }),
    originatingVASP: Type.Optional(Type.Object({ originatingVASP: Person })),
    beneficiaryVASP: Type.Optional(Type.Object({ beneficiaryVASP: Person })),
  },
  { description: 'Travel Rule data in the IVMS101 data model' },
);
