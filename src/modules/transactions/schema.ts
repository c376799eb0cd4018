import { Type } from 'typebox';
import { Amount, AmountInput, DateTime, Nullable, PageQuery, StringEnum, Uuid } from '../../http/schemas.ts';
import { BLOCKCHAINS } from '../rails/chains/networks.ts';
import { TARGET_CURRENCIES, TRANSACTION_STATUSES } from './state.ts';

export const TransactionStatusSchema = StringEnum([...TRANSACTION_STATUSES, 'PROCESSING'] as const);
const Chain = StringEnum(BLOCKCHAINS, { description: 'Blockchain' });
const Currency = StringEnum(['BRL', 'USDC', 'USDT'] as const);
const Fee = Type.Object({ amount: Type.String(), currency: Currency });

export const CreateOnRampBody = Type.Object(
  {
    customerId: Uuid('The customer who pays and receives the stablecoin; must be APPROVED'),
    currency: StringEnum(['BRL'] as const, { description: 'Currency of the deposit' }),
    amount: AmountInput('Amount of BRL the customer deposits'),
    targetCurrency: Type.Optional(
      StringEnum(TARGET_CURRENCIES, { description: 'Stablecoin to receive (default USDC)' }),
    ),
    blockchain: Type.Optional(
      StringEnum(BLOCKCHAINS, {
        description:
          "Chain of the customer's wallet that receives the stablecoin (default: the default chain)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const BlockchainReceipt = Type.Object(
  {
    network: Nullable(Chain),
    transactionHash: Nullable(
      Type.String({ description: 'Hash of the on-chain transfer; null when it moved in the ledger only' }),
    ),
    blockExplorerUrl: Nullable(Type.String({ description: 'The transfer on a block explorer' })),
  },
  { description: 'Where the stablecoin moved on chain' },
);

const Receipt = Type.Object(
  {
    sourceCurrency: Currency,
    sourceAmount: Type.String({ description: 'Amount sent or deposited', examples: ['1500.00'] }),
    fee: Type.String({
      description: 'Total fee: for on-ramps basis points of the amount plus a flat fee; none on transfers',
    }),
    fees: Type.Optional(Type.Object({ platform: Fee, partner: Fee })),
    netAmount: Type.String({ description: 'sourceAmount − fee' }),
    rate: Type.String({ description: 'Target units per source unit applied', examples: ['0.1834'] }),
    targetCurrency: StringEnum(TARGET_CURRENCIES),
    targetAmount: Type.String({
      description: 'Stablecoin credited: netAmount × rate rounded down to 6 decimals',
      examples: ['182.441100'],
    }),
    blockchain: Type.Optional(BlockchainReceipt),
  },
  { description: 'What moved, once the transaction has succeeded (a transfer: once its hash is known)' },
);

export const TransactionSchema = Type.Object(
  {
    id: Uuid(),
    customerId: Uuid(),
    type: StringEnum(['ON_RAMP', 'TRANSFER', 'DEPOSIT'] as const),
    status: TransactionStatusSchema,
    request: Type.Object({
      currency: Currency,
      amount: Type.String({ description: 'BRL with 2 decimals, stablecoins with 6' }),
      targetCurrency: Type.Optional(StringEnum(TARGET_CURRENCIES)),
      blockchain: Nullable(Chain),
      from: Type.Optional(
        Nullable(
          Type.String({ description: 'TRANSFER: the sending customer; DEPOSIT: the sending address' }),
        ),
      ),
      to: Type.Optional(
        Type.String({
          description: 'TRANSFER: the receiving customer or external address; DEPOSIT: the customer',
        }),
      ),
    }),
    depositInstructions: Nullable(
      Type.Object({
        rail: Type.Literal('PIX'),
        brCode: Type.String({ description: 'PIX "copia e cola" payload (EMV BR Code) of this exact charge' }),
        amount: Amount(),
        currency: Type.Literal('BRL'),
        expiresAt: DateTime('The charge expires unless its deposit arrives before this time'),
      }),
    ),
    receipt: Nullable(Receipt),
    failureReason: Nullable(Type.String({ description: 'Why the transaction FAILED or EXPIRED' })),
    timeline: Type.Array(Type.Object({ status: TransactionStatusSchema, at: DateTime() })),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
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
