import { Type } from 'typebox';
import { DateTime, StringEnum, Uuid } from '../../http/schemas.ts';
import { VERIFICATION_STATUSES } from './state.ts';

export const VerificationStatusSchema = StringEnum(VERIFICATION_STATUSES);

export const StatusReasonSchema = Type.Object({
  rejectLabels: Type.Array(Type.String(), { examples: [['screenshot', 'unsatisfactory_photos']] }),
  rejectSubLabels: Type.Array(Type.String(), { examples: [['proofOfAddress_listOfDocs', 'badPhoto']] }),
  documents: Type.Array(
    Type.Object({
      type: Type.String({ examples: ['PASSPORT'] }),
      status: Type.String({ examples: ['TEMPORARY_REJECTION'] }),
      comment: Type.String(),
      rejectLabels: Type.Array(Type.String()),
    }),
  ),
});

export const VerificationSchema = Type.Object(
  {
    id: Uuid(),
    customerId: Uuid(),
    associatedPartyId: Type.Optional(
      Uuid('Set on the verification of an associated party of the (business) customer'),
    ),
    status: VerificationStatusSchema,
    level: Type.Literal('STANDARD'),
    statusReason: StatusReasonSchema,
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'Verification' },
);
