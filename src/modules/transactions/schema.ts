import { Type } from 'typebox';
import { Amount, AmountInput, DateTime, Nullable, PageQuery, StringEnum, Uuid } from '../../http/schemas.ts';
import { TARGET_CURRENCIES, TRANSACTION_STATUSES } from './state.ts';

export const TransactionStatusSchema = StringEnum(TRANSACTION_STATUSES);

export const CreateOnRampBody = Type.Object(
  {
    customerId: Uuid('The customer who pays and receives the stablecoin; must be APPROVED'),
    currency: StringEnum(['BRL'] as const, { description: 'Currency of the deposit' }),
    amount: AmountInput('Amount of BRL the customer deposits'),
    targetCurrency: Type.Optional(
      StringEnum(TARGET_CURRENCIES, { description: 'Stablecoin to receive (default USDC)' }),
    ),
  },
  { additionalProperties: false },
);

const Receipt = Type.Object(
  {
    sourceCurrency: Type.Literal('BRL'),
    sourceAmount: Amount('BRL deposited'),
    fee: Amount('Fee in BRL: basis points of the amount (rounded half up to the cent) plus a flat fee'),
    netAmount: Amount('BRL converted: sourceAmount − fee'),
    rate: Type.String({ description: 'Stablecoin units per 1 BRL applied', examples: ['0.1834'] }),
    targetCurrency: StringEnum(TARGET_CURRENCIES),
    targetAmount: Type.String({
      description: 'Stablecoin credited: netAmount × rate rounded down to 6 decimals',
      examples: ['182.441100'],
    }),
  },
  { description: 'The conversion, once the transaction has succeeded' },
);

export const TransactionSchema = Type.Object(
  {
    id: Uuid(),
    customerId: Uuid(),
    type: Type.Literal('ON_RAMP'),
    status: TransactionStatusSchema,
    request: Type.Object({
      currency: Type.Literal('BRL'),
      amount: Amount(),
      targetCurrency: StringEnum(TARGET_CURRENCIES),
    }),
    depositInstructions: Type.Object({
      rail: Type.Literal('PIX'),
      brCode: Type.String({ description: 'PIX "copia e cola" payload (EMV BR Code) of this exact charge' }),
      amount: Amount(),
      currency: Type.Literal('BRL'),
      expiresAt: DateTime('The charge expires unless its deposit arrives before this time'),
    }),
    receipt: Nullable(Receipt),
    failureReason: Nullable(Type.String({ description: 'Why the transaction FAILED or EXPIRED' })),
    timeline: Type.Array(Type.Object({ status: TransactionStatusSchema, at: DateTime() })),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'Transaction' },
);

export const ListTransactionsQuery = Type.Object(
  { ...PageQuery, customerId: Type.Optional(Uuid('Only the transactions of this customer')) },
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
