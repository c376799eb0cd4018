import { Type } from 'typebox';
import { BLOCKCHAINS, STABLECOINS } from '../../core/currencies.ts';
import { DateTime, MetadataInput, StringEnum, Uuid } from '../../http/schemas.ts';
import { TransferTravelRuleInput } from '../screening/travel-rule-schema.ts';

export const STABLECOIN_AMOUNT_PATTERN = '^\\d{1,13}(\\.\\d{1,6})?$';

const StablecoinAmountInput = (description: string) =>
  Type.String({ pattern: STABLECOIN_AMOUNT_PATTERN, description, examples: ['250.50'] });

export const WalletList = Type.Object({
  data: Type.Array(
    Type.Object({
      blockchain: StringEnum(BLOCKCHAINS),
      address: Type.String({
        description: 'EIP-55 checksummed on EVM chains; base58check (T...) on Tron',
        examples: ['0x52908400098527886E0F7030069857D2E4169EE7'],
      }),
      blockExplorerUrl: Type.String(),
      isDefault: Type.Boolean({ description: "The project's default chain" }),
      balances: Type.Array(
        Type.Object({
          currency: StringEnum(STABLECOINS),
          amount: Type.String({ examples: ['182.441100'] }),
          updatedAt: DateTime('When the balance last changed (or the wallet was created)'),
        }),
      ),
    }),
  ),
});

export const TransferBody = Type.Object(
  {
    currency: StringEnum(STABLECOINS),
    from: Uuid('The sending customer; must be APPROVED'),
    to: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Another customer of the project (its id) or an address of the chain',
    }),
    amount: StablecoinAmountInput('Amount to send, up to 6 decimals'),
    blockchain: Type.Optional(StringEnum(BLOCKCHAINS, { description: 'Default: the default chain' })),
    travelRule: Type.Optional(TransferTravelRuleInput),
    metadata: Type.Optional(MetadataInput()),
  },
  { additionalProperties: false },
);

export const WalletAddressParams = Type.Object(
  { address: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

export const SandboxWalletDepositBody = Type.Object(
  {
    currency: StringEnum(STABLECOINS),
    amount: StablecoinAmountInput('Amount the simulated sender transfers'),
    blockchain: Type.Optional(
      StringEnum(BLOCKCHAINS, {
        description:
          'Chain of the transfer; an EVM address is on every EVM chain (default: the default chain)',
      }),
    ),
    from: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Address of the simulated sender on that chain (default: a fixed simulated address)',
      }),
    ),
  },
  { additionalProperties: false },
);
