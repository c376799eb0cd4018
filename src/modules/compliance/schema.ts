/** The schemas of the compliance desk: its queues, the operator views of what they hold, and the decisions. */
import { Type } from 'typebox';
import { AmountInput, DateTime, Nullable, PageQuery, StringEnum, Uuid } from '../../http/schemas.ts';
import { ENVIRONMENTS } from '../../lib/environment.ts';
import { HOLDER_REVIEW_OUTCOMES, HOLDER_STATUSES } from '../bank-accounts/holder-state.ts';
import { BankAccountSchema } from '../bank-accounts/schema.ts';
import { CustomerType } from '../customers/schema.ts';
import { CONTENT_TYPES, DOCUMENT_SOURCES } from '../documents/kinds.ts';
import { StatusReasonInputSchema } from '../hosted-verification/schema.ts';
import { REVIEW_DECISION_NAMES } from '../limit-requests/review.ts';
import { LIMIT_REQUEST_STATUSES } from '../limit-requests/rules.ts';
import { LimitRequestSchema } from '../limit-requests/schema.ts';
import { REVIEW_OUTCOMES } from '../verification-review/review.ts';
import { VerificationSchema } from '../verifications/schema.ts';
import { VERIFICATION_STATUSES } from '../verifications/state.ts';

// ---- queues

const tenantFilter = {
  projectId: Type.Optional(Uuid('Only this project')),
  environment: Type.Optional(StringEnum(ENVIRONMENTS)),
};

const tenantFields = { projectId: Uuid(), environment: StringEnum(ENVIRONMENTS) };

export const VerificationQueueQuery = Type.Object(
  {
    status: Type.Optional({ ...StringEnum(VERIFICATION_STATUSES), default: 'UNDER_VERIFICATION' }),
    ...tenantFilter,
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const LimitRequestQueueQuery = Type.Object(
  {
    status: Type.Optional({ ...StringEnum(LIMIT_REQUEST_STATUSES), default: 'IN_REVIEW' }),
    ...tenantFilter,
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const HolderQueueQuery = Type.Object(
  {
    holderStatus: Type.Optional({ ...StringEnum(HOLDER_STATUSES), default: 'UNDER_VERIFICATION' }),
    relationship: Type.Optional(StringEnum(['SELF', 'THIRD_PARTY'])),
    ...tenantFilter,
    ...PageQuery,
  },
  { additionalProperties: false },
);

// ---- views

export const OperatorDocumentSchema = Type.Object({
  id: Uuid(),
  type: Type.String(),
  fileName: Type.String(),
  size: Type.Integer(),
  side: Type.Optional(Type.String()),
  associatedPartyId: Type.Optional(Uuid()),
  createdAt: DateTime(),
  customerId: Uuid(),
  ...tenantFields,
  source: StringEnum(DOCUMENT_SOURCES),
  verificationId: Nullable(Uuid()),
  contentType: StringEnum(CONTENT_TYPES),
  sha256: Type.String(),
});

export const OperatorVerificationSchema = Type.Object({
  ...VerificationSchema.properties,
  ...tenantFields,
  customer: Type.Object({
    id: Uuid(),
    type: CustomerType,
    name: Type.String(),
    taxId: Type.String(),
    country: Type.String(),
    email: Type.String(),
  }),
  associatedParty: Type.Optional(
    Type.Object(
      { id: Uuid(), type: Type.String(), role: Type.String(), name: Type.String() },
      { description: "Set when this is an associated party's verification (of the business customer)" },
    ),
  ),
  reviewApproved: Type.Optional(
    Type.Boolean({ description: "The customer's own documents were approved; it waits for its parties" }),
  ),
  missing: Type.Optional(
    Type.Array(Type.String(), {
      description: "A customer's verification under review: what still stands between it and APPROVED",
    }),
  ),
});

export const OperatorVerificationDetailSchema = Type.Object({
  ...OperatorVerificationSchema.properties,
  documents: Type.Array(OperatorDocumentSchema),
  ownershipTree: Type.Optional(
    Type.Array(
      Type.Object({
        id: Uuid(),
        type: Type.String(),
        role: Type.String(),
        name: Type.String(),
        taxId: Type.String(),
        ownershipPercentage: Nullable(Type.Number()),
        effectiveOwnership: Nullable(Type.String()),
        ubo: Type.Boolean(),
        verification: Nullable(Type.Object({ id: Uuid(), status: Type.String() })),
        parentId: Nullable(Uuid()),
        depth: Type.Integer(),
        documents: Type.Array(OperatorDocumentSchema),
      }),
      { description: "A business customer's associated parties, depth first, each after its parent" },
    ),
  ),
});

const Limits = Type.Object({ single: Type.String(), daily: Type.String(), monthly: Type.String() });

export const OperatorLimitRequestSchema = Type.Object({
  ...LimitRequestSchema.properties,
  ...tenantFields,
  customer: Type.Object({ id: Uuid(), type: CustomerType, name: Type.String() }),
});

export const OperatorLimitRequestDetailSchema = Type.Object({
  ...OperatorLimitRequestSchema.properties,
  limitsInForce: Type.Object(Limits.properties, { description: "The customer's limits in force today" }),
  supportingDocument: Nullable(OperatorDocumentSchema),
});

export const OperatorBankAccountSchema = Type.Object({ ...BankAccountSchema.properties, ...tenantFields });

// ---- reviews

export const VerificationReviewBody = Type.Object(
  {
    status: StringEnum(REVIEW_OUTCOMES),
    statusReason: Type.Optional(StatusReasonInputSchema),
  },
  { additionalProperties: false },
);

export const LimitRequestReviewBody = Type.Object(
  {
    decision: StringEnum(REVIEW_DECISION_NAMES, {
      description:
        'APPROVE grants the requested amounts; PARTIALLY_APPROVE grants lower ones (approved and a comment ' +
        'required); REJECT grants nothing (comment required)',
    }),
    approved: Type.Optional(
      Type.Object(
        {
          single: Type.Optional(AmountInput()),
          daily: Type.Optional(AmountInput()),
          monthly: Type.Optional(AmountInput()),
        },
        {
          additionalProperties: false,
          description: 'PARTIALLY_APPROVE: an amount for each requested limit, none above it, one below',
        },
      ),
    ),
    reviewComment: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  },
  { additionalProperties: false },
);

export const HolderReviewBody = Type.Object(
  {
    status: StringEnum(HOLDER_REVIEW_OUTCOMES),
    reviewComment: Type.Optional(
      Type.String({ maxLength: 2000, description: 'Required with FINAL_REJECTION' }),
    ),
  },
  { additionalProperties: false },
);
