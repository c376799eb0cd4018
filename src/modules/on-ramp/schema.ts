/** What a partner sends to create an on-ramp, and to simulate its deposit in the sandbox. */
import { Type } from 'typebox';
import { BLOCKCHAINS } from '../../core/currencies.ts';
import { AmountInput, MetadataInput, StringEnum, Uuid } from '../../http/schemas.ts';
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
