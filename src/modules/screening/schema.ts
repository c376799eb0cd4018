import { Type } from 'typebox';
import { DateTime, Nullable, PageQuery, StringEnum, Uuid } from '../../http/schemas.ts';

export const SUBJECT_TYPES = [
  'CUSTOMER',
  'BANK_ACCOUNT_HOLDER',
  'ASSOCIATED_PARTY',
  'TRANSFER',
  'DEPOSIT',
] as const;
export const CASE_STATUSES = ['OPEN', 'CLEARED', 'CONFIRMED'] as const;

/** What `customer.screening.updated` carries: the state of a person's screening, never the list's content. */
export const CustomerScreeningSchema = Type.Object(
  {
    customerId: Uuid(),
    subjectType: StringEnum(['CUSTOMER', 'BANK_ACCOUNT_HOLDER', 'ASSOCIATED_PARTY']),
    subjectId: Uuid('The customer, bank account or associated party screened'),
    caseId: Uuid(),
    status: StringEnum(['ON_HOLD', 'CLEARED', 'CONFIRMED'], {
      description:
        'ON_HOLD: a possible sanctions match is under review and the subject’s money movements are refused ' +
        '(409 compliance_hold); CLEARED: the hold is lifted; CONFIRMED: the match stands (the verification or ' +
        'holder is FINAL_REJECTION)',
    }),
    reason: StringEnum(['NAME_MATCH', 'ADDRESS_MATCH']),
    updatedAt: DateTime(),
  },
  { $id: 'CustomerScreening' },
);

const MatchSchema = Type.Object({
  entryId: Uuid(),
  versionId: Uuid(),
  source: Type.String(),
  sourceUid: Type.String(),
  primaryName: Type.String(),
  matchedName: Type.String(),
  score: Type.Number(),
  nameScore: Type.Number(),
  factors: Type.Array(Type.String()),
});

export const ScreeningCaseSchema = Type.Object({
  id: Uuid(),
  projectId: Uuid(),
  environment: Type.String(),
  subjectType: StringEnum(SUBJECT_TYPES),
  subjectId: Uuid(),
  customerId: Uuid(),
  reason: StringEnum(['NAME_MATCH', 'ADDRESS_MATCH', 'STRUCTURING'], {
    description:
      'NAME_MATCH and ADDRESS_MATCH: a possible sanctions match (see `matches`); STRUCTURING: transfers to one ' +
      'counterparty within 24 hours, each below the Travel Rule threshold, add up to it (see `screened.transfers`)',
  }),
  status: StringEnum(CASE_STATUSES),
  score: Type.String(),
  screened: Type.Record(Type.String(), Type.Unknown()),
  matches: Type.Array(MatchSchema),
  decidedBy: Nullable(Type.String()),
  decisionComment: Nullable(Type.String()),
  createdAt: DateTime(),
  decidedAt: Nullable(DateTime()),
});

const ListedEntrySchema = Type.Object({
  id: Uuid(),
  source: Type.String(),
  sourceUid: Type.String(),
  kind: Type.String(),
  primaryName: Type.String(),
  programs: Type.Array(Type.String()),
  countries: Type.Array(Type.String()),
  birthDates: Type.Array(Type.String()),
  remarks: Nullable(Type.String()),
  details: Type.Record(Type.String(), Type.Unknown()),
  names: Type.Array(
    Type.Object({ name: Type.String(), alias: Type.Boolean(), quality: Nullable(Type.String()) }),
  ),
  addresses: Type.Array(Type.Object({ currency: Type.String(), address: Type.String() })),
});

export const ScreeningCaseDetailSchema = Type.Object({
  ...ScreeningCaseSchema.properties,
  entries: Type.Array(ListedEntrySchema, { description: 'The matched list entries in full, side by side' }),
});

export const CaseQueueQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(StringEnum(CASE_STATUSES)),
    customerId: Type.Optional(Uuid()),
    subjectId: Type.Optional(Uuid()),
  },
  { additionalProperties: false },
);

export const CaseDecisionBody = Type.Object(
  {
    decision: StringEnum(['CLEAR', 'CONFIRM'], {
      description: 'CLEAR: not the listed party, the hold is lifted; CONFIRM: the match stands',
    }),
    comment: Type.String({ minLength: 1, maxLength: 2000, description: 'Why; kept in the audit log' }),
  },
  { additionalProperties: false },
);

export const ListVersionSchema = Type.Object({
  id: Uuid(),
  source: StringEnum(['OFAC_SDN', 'UN']),
  publishedAt: Nullable(DateTime()),
  digest: Type.String(),
  entries: Type.Integer(),
  names: Type.Integer(),
  addresses: Type.Integer(),
  inForce: Type.Boolean(),
  importedAt: DateTime(),
});
