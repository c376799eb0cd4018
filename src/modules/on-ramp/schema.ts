/** What a partner sends to create an on-ramp, and to simulate its deposit in the sandbox. */
import { Type } from 'typebox';
import { BLOCKCHAINS } from '../../core/currencies.ts';
import { AmountInput, MetadataInput, Nullable, StringEnum, Uuid } from '../../http/schemas.ts';
import { TARGET_CURRENCIES } from '../transactions/state.ts';

export const CreateOnRampBody = Type.Object(
  {
    customerId: Uuid('The customer who pays and receives the stablecoin; must be APPROVED'),
    currency: Type.Optional(
      StringEnum(['BRL'] as const, { description: 'Currency of the deposit (optional with exchangeRateId)' }),
    ),
    amount: Type.Optional(
      AmountInput('Amount of BRL the customer deposits; required unless exchangeRateId is given'),
    ),
    targetCurrency: Type.Optional(
      StringEnum(TARGET_CURRENCIES, { description: 'Stablecoin to receive (default USDC)' }),
    ),
    exchangeRateId: Type.Optional(
      Uuid('A LOCKED BRL→stablecoin quote: the on-ramp settles at exactly its figures (single-use)'),
    ),
    blockchain: Type.Optional(
      StringEnum(BLOCKCHAINS, {
        description:
          "Chain of the customer's wallet that receives the stablecoin (default: the default chain)",
      }),
    ),
    metadata: Type.Optional(MetadataInput()),
  },
  { additionalProperties: false },
);

export const SandboxDepositBody = Type.Object(
  {
    amount: Type.Optional(
      AmountInput('Amount the simulated payer sends; defaults to the requested amount. Any other fails it.'),
    ),
  },
  { additionalProperties: false },
);

/** A simulated ACH credit or wire to a customer account (sandbox). */
export const SandboxAccountDepositBody = Type.Object(
  {
    amount: AmountInput('USD the simulated payer sends, with two decimals'),
    rail: Type.Optional(
      StringEnum(['ACH', 'WIRE'] as const, { description: 'How the dollars come in (default ACH)' }),
    ),
  },
  { additionalProperties: false },
);

/** What became of a simulated transfer in: the on-ramp it funds, or its return and why. */
export const SandboxAccountDepositAnswer = Type.Object(
  {
    outcome: StringEnum(['APPLIED', 'HELD', 'RETURNED'] as const, {
      description:
        'APPLIED: an on-ramp converting it; HELD: an on-ramp held uncredited while the customer is on ' +
        'compliance hold; RETURNED: given back to the payer, nothing booked',
    }),
    transaction: Nullable(Type.Ref('Transaction')),
    returnReason: Nullable(Type.String({ description: 'RETURNED: why Ponte could not take it' })),
  },
  { description: 'What became of the simulated transfer' },
);
