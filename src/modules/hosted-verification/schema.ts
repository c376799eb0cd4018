import { Type } from 'typebox';
import { StringEnum } from '../../http/schemas.ts';
import { VERIFICATION_STATUSES } from '../verifications/state.ts';

const label = () => Type.String({ minLength: 1, maxLength: 100 });
const labels = (examples: string[]) => Type.Array(label(), { maxItems: 50, examples: [examples] });

/** A statusReason as an operator (or the sandbox) gives it; arrays left out are empty. */
export const StatusReasonInputSchema = Type.Object(
  {
    rejectLabels: Type.Optional(labels(['screenshot', 'unsatisfactory_photos'])),
    rejectSubLabels: Type.Optional(labels(['proofOfAddress_listOfDocs', 'badPhoto'])),
    documents: Type.Optional(
      Type.Array(
        Type.Object(
          {
            type: Type.String({ minLength: 1, maxLength: 100, examples: ['PASSPORT'] }),
            status: Type.String({ minLength: 1, maxLength: 100, examples: ['TEMPORARY_REJECTION'] }),
            comment: Type.String({
              minLength: 1,
              maxLength: 2000,
              description: 'Shown to the end customer on the hosted page',
            }),
            rejectLabels: Type.Optional(labels(['screenshot'])),
          },
          { additionalProperties: false },
        ),
        { maxItems: 20 },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Why the verification was rejected: required, with at least one reject label, for rejections',
  },
);

export const SandboxVerificationBody = Type.Object(
  {
    status: StringEnum(VERIFICATION_STATUSES, {
      description: 'The status to move to; the move must be legal',
    }),
    statusReason: Type.Optional(StatusReasonInputSchema),
  },
  { additionalProperties: false },
);
