import { Type } from 'typebox';
import { BLOCKCHAINS, STABLECOINS } from '../../core/currencies.ts';
import { DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.ts';

export const ACCOUNT_STATUSES = ['PROVISIONING', 'ACTIVE', 'CLOSED'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export const DEPOSIT_RAILS = ['ACH', 'WIRE'] as const;

export const CreateAccountBody = Type.Object(
  {
    currency: Type.Literal('USD', {
      description: 'The currency the account receives; USD over ACH and wire',
    }),
    destinationCurrency: Type.Optional(
      StringEnum(STABLECOINS, {
        description: 'The stablecoin each deposit converts to and is credited in (default USDC)',
      }),
    ),
    blockchain: Type.Optional(
      StringEnum(BLOCKCHAINS, {
        description: "Chain of the customer's wallet the stablecoin goes to (default: the default chain)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const CustomerIdParams = Type.Object({ id: Uuid('The customer') }, { additionalProperties: false });

export const ListAccountsQuery = Type.Object({ ...ListQuery }, { additionalProperties: false });

export const AccountSchema = Type.Object(
  {
    id: Uuid(),
    customerId: Uuid(),
    currency: Type.Literal('USD'),
    status: StringEnum(ACCOUNT_STATUSES, {
      description:
        'PROVISIONING: the account number is being opened at the bank; ACTIVE: deposits to it are taken; ' +
        'CLOSED: the account number is disabled and later deposits are returned',
    }),
    depositInstructions: Nullable(
      Type.Object(
        {
          rails: Type.Array(StringEnum(DEPOSIT_RAILS), { description: 'How a US payer may send to it' }),
          bankName: Type.String(),
          bankAddress: Nullable(Type.String({ description: 'null where the bank publishes none' })),
          routingNumber: Type.String({ description: 'ABA routing transit number, 9 digits' }),
          accountNumber: Type.String(),
          beneficiaryName: Type.String({ description: 'The name a payer gives as the beneficiary' }),
        },
        { description: 'What a US payer needs to send an ACH credit or a wire; null while PROVISIONING' },
      ),
    ),
    destinationCurrency: StringEnum(STABLECOINS),
    blockchain: StringEnum(BLOCKCHAINS),
    createdAt: DateTime(),
    updatedAt: DateTime(),
    closedAt: Nullable(DateTime()),
  },
  {
    $id: 'Account',
    description:
      "A customer's account in a currency: a US account number that converts each ACH credit or wire it " +
      'receives into the destination stablecoin',
  },
);
