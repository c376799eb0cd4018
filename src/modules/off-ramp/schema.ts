/** What a partner sends to create an off-ramp, and to simulate its payment being returned in the sandbox. */
import { Type } from 'typebox';
import { MetadataInput, StringEnum, Uuid } from '../../http/schemas.ts';
import { ANY_AMOUNT_PATTERN } from '../ledger/amounts.ts';
import { OFF_RAMP_PURPOSES, OFF_RAMP_SOURCES } from '../transactions/off-ramp-terms.ts';

export const CreateOffRampBody = Type.Object(
  {
    customerId: Uuid('The customer paying out; must be APPROVED'),
    bankAccountId: Uuid(
      "One of the customer's bank accounts, its holder APPROVED: a PIX account is paid BRL, an ACH or WIRE account USD",
    ),
    sourceCurrency: Type.Optional(
      StringEnum(OFF_RAMP_SOURCES, { description: 'Balance paid out from (optional with exchangeRateId)' }),
    ),
    sourceAmount: Type.Optional(
      Type.String({
        pattern: ANY_AMOUNT_PATTERN,
        description:
          'Amount of the source currency (up to its decimals); required unless exchangeRateId is given',
        examples: ['100.000000'],
      }),
    ),
    exchangeRateId: Type.Optional(
      Uuid(
        'A LOCKED stablecoin→BRL (or →USD, to a USD account) quote: the off-ramp settles at exactly its figures (single-use)',
      ),
    ),
    purpose: StringEnum(OFF_RAMP_PURPOSES, { description: 'PERSONAL_ACCOUNT only to a SELF account' }),
    memo: Type.Optional(Type.String({ minLength: 1, maxLength: 140, description: 'Shown to the receiver' })),
    metadata: Type.Optional(MetadataInput()),
  },
  { additionalProperties: false },
);

export const SandboxReturnBody = Type.Object(
  {
    reason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 140,
        description: 'Why the receiving bank sent the payment back',
      }),
    ),
    code: Type.Optional(
      Type.String({
        pattern: '^[Rr][0-9]{2}$',
        description: 'ACH payouts only: the Nacha return code (default R01, insufficient funds)',
        examples: ['R03'],
      }),
    ),
  },
  { additionalProperties: false },
);
