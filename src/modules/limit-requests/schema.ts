import { Type } from 'typebox';
import { Amount, AmountInput, DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.ts';
import { SUPPORTING_DOCUMENT_TYPES } from '../documents/kinds.ts';
import { LIMIT_REQUEST_STATUSES } from './rules.ts';

export const LimitRequestStatusSchema = StringEnum(LIMIT_REQUEST_STATUSES);

export const SupportingDocumentTypeSchema = StringEnum(SUPPORTING_DOCUMENT_TYPES, {
  description: 'Type of the supporting document',
});

const limitAmounts = (what: string) =>
  Type.Object(
    {
      single: Nullable(Amount(`${what} per-transaction limit`)),
      daily: Nullable(Amount(`${what} daily limit`)),
      monthly: Nullable(Amount(`${what} monthly limit`)),
    },
    { additionalProperties: false },
  );

export const LimitRequestSchema = Type.Object(
  {
    id: Uuid('Limit request identifier'),
    customerId: Uuid('Owning customer'),
    requested: limitAmounts('Requested'),
    approved: limitAmounts('Approved'),
    supportingDocumentType: Nullable(SupportingDocumentTypeSchema),
    supportingDocumentId: Nullable(Uuid('Identifier of the supporting document')),
    status: LimitRequestStatusSchema,
    reviewComment: Nullable(
      Type.String({ description: 'Compliance comment; set when rejected or partially approved' }),
    ),
    createdAt: DateTime('Creation time'),
    updatedAt: DateTime('Last update time; the review time once the request has left IN_REVIEW'),
  },
  {
    $id: 'LimitRequest',
    description: 'A request by a customer to raise transaction limits, reviewed by compliance',
    additionalProperties: false,
  },
);

export const CreateLimitRequestBody = Type.Object(
  {
    requested: Type.Object(
      {
        single: Type.Optional(AmountInput('Requested per-transaction limit')),
        daily: Type.Optional(AmountInput('Requested daily limit')),
        monthly: Type.Optional(AmountInput('Requested monthly limit')),
      },
      {
        additionalProperties: false,
        description: 'At least one amount; the given ones must satisfy single <= daily <= monthly',
      },
    ),
    supportingDocumentType: Type.Optional(SupportingDocumentTypeSchema),
    supportingDocumentId: Type.Optional(
      Uuid('Identifier of the supporting document; given together with supportingDocumentType'),
    ),
  },
  { additionalProperties: false },
);

export const CustomerParams = Type.Object(
  { id: Uuid('Customer identifier') },
  { additionalProperties: false },
);

export const LimitRequestParams = Type.Object(
  { id: Uuid('Customer identifier'), limitRequestId: Uuid('Limit request identifier') },
  { additionalProperties: false },
);

export const ListLimitRequestsQuery = Type.Object(ListQuery, { additionalProperties: false });
