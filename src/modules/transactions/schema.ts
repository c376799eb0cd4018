import { Type } from 'typebox';
import { BLOCKCHAINS, CURRENCIES } from '../../core/currencies.ts';
import { FAILURE_CODES } from '../../core/failure-codes.ts';
import { Amount, DateTime, ListQuery, Nullable, StringEnum, Uuid } from '../../http/schemas.ts';
import { PricedReference } from '../pricing/schema.ts';
import { TravelRuleSchema } from '../screening/travel-rule-schema.ts';
import { OFF_RAMP_PURPOSES, OFF_RAMP_SOURCES } from './off-ramp-terms.ts';
import { TARGET_CURRENCIES, TRANSACTION_STATUSES, TRANSACTION_TYPES } from './state.ts';

export const TransactionStatusSchema = StringEnum([
  ...TRANSACTION_STATUSES,
  'PROCESSING',
  'AWAITING_TRAVEL_RULE',
] as const);
const Chain = StringEnum(BLOCKCHAINS, { description: 'Blockchain' });

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

const Money = Type.Object({ amount: Type.String(), currency: StringEnum(CURRENCIES) });

const Receipt = Type.Object(
  {
    sourceCurrency: StringEnum(CURRENCIES),
    sourceAmount: Type.String({ description: 'Amount paid, in the source currency' }),
    fee: Type.String({ description: 'Total fee in the source currency: fees.platform + fees.partner' }),
    fees: Type.Object(
      { platform: Money, partner: Money },
      {
        description:
          "Platform fee (basis points rounded half up, plus a flat amount, at least the minimum) and the partner's own fee",
      },
    ),
    netAmount: Type.String({ description: 'Amount converted: sourceAmount − fee' }),
    rate: Type.String({
      description: 'Target units per source unit applied to netAmount',
      examples: ['0.1834'],
    }),
    targetCurrency: StringEnum(CURRENCIES),
    targetAmount: Type.String({
      description: 'Amount received: netAmount × rate rounded down to the target currency',
      examples: ['182.441100'],
    }),
    reference: Type.Optional(PricedReference),
    blockchain: Type.Optional(BlockchainReceipt),
  },
  {
    description:
      'The conversion: an on-ramp once it has succeeded, an off-ramp from its creation; a transfer or ' +
      'deposit (rate 1, no fee) once its hash is known',
  },
);

const OnRampRequest = Type.Object({
  currency: StringEnum(['BRL', 'USD'] as const, {
    description: 'BRL: paid over PIX to a charge; USD: an ACH credit or a wire to a customer account',
  }),
  amount: Amount(),
  targetCurrency: StringEnum(TARGET_CURRENCIES),
  exchangeRateId: Type.Optional(Uuid('The LOCKED quote it settles at')),
  blockchain: Nullable(Chain),
});

const OffRampRequest = Type.Object({
  sourceCurrency: StringEnum(OFF_RAMP_SOURCES),
  sourceAmount: Type.String(),
  targetCurrency: StringEnum(['BRL', 'USD'] as const, {
    description: "The bank account's currency: BRL over PIX, USD over ACH or wire",
  }),
  bankAccountId: Uuid(),
  purpose: StringEnum(OFF_RAMP_PURPOSES),
  memo: Nullable(Type.String()),
  exchangeRateId: Nullable(Uuid()),
});

const ChainRequest = Type.Object({
  currency: StringEnum(TARGET_CURRENCIES),
  amount: Type.String({ description: 'Stablecoin with 6 decimals' }),
  blockchain: Chain,
  from: Nullable(
    Type.String({ description: 'TRANSFER: the sending customer; DEPOSIT: the sending address' }),
  ),
  to: Type.String({
    description: 'TRANSFER: the receiving customer or external address; DEPOSIT: the customer',
  }),
});

export const TransactionSchema = Type.Object(
  {
    id: Uuid(),
    customerId: Uuid(),
    type: StringEnum([...TRANSACTION_TYPES, 'TRANSFER', 'DEPOSIT'] as const),
    status: TransactionStatusSchema,
    request: Type.Union([OnRampRequest, OffRampRequest, ChainRequest]),
    depositInstructions: Type.Optional(
      Nullable(
        Type.Union([
          Type.Object(
            {
              rail: Type.Literal('PIX'),
              brCode: Type.String({
                description: 'PIX "copia e cola" payload (EMV BR Code) of this exact charge',
              }),
              amount: Amount(),
              currency: Type.Literal('BRL'),
              expiresAt: DateTime('The charge expires unless its deposit arrives before this time'),
            },
            { description: 'ON_RAMP in BRL: the PIX charge to pay' },
          ),
          Type.Object(
            {
              rail: StringEnum(['ACH', 'WIRE'] as const),
              accountId: Uuid('The customer account the dollars were paid into'),
              amount: Amount(),
              currency: Type.Literal('USD'),
            },
            { description: 'ON_RAMP in USD: the transfer that funded it, to a customer account' },
          ),
        ]),
      ),
    ),
    refund: Type.Optional(
      Nullable(
        Type.Object(
          {
            status: StringEnum(['PENDING', 'SUCCESS', 'FAILED'] as const),
            amount: Amount('BRL sent back to the payer'),
            failureReason: Nullable(Type.String()),
            updatedAt: DateTime(),
          },
          { description: 'ON_RAMP: the refund of held deposits, once requested' },
        ),
      ),
    ),
    payout: Type.Optional(
      Type.Object(
        {
          rail: StringEnum(['PIX', 'ACH', 'WIRE'] as const, {
            description: "The bank account's rail: PIX for BRL, ACH or WIRE for USD",
          }),
          bankAccountId: Uuid(),
          endToEndId: Nullable(
            Type.String({
              description:
                'PIX end-to-end id (E + ISPB + yyyyMMddHHmm + 11), set when sent; null for ACH and wire',
            }),
          ),
        },
        { description: 'OFF_RAMP: the payment that carries the fiat (BRL over PIX, USD over ACH or wire)' },
      ),
    ),
    receipt: Nullable(Receipt),
    failureReason: Nullable(Type.String({ description: 'Why the transaction FAILED or EXPIRED, in words' })),
    failureCode: Type.Optional(
      Nullable(
        StringEnum(FAILURE_CODES, {
          description:
            'Why the transaction FAILED or EXPIRED (or a USD payout was RETURNED: ach_returned, wire_reversed), as a stable code to branch on; null otherwise',
        }),
      ),
    ),
    returnReason: Type.Optional(
      Nullable(Type.String({ description: 'OFF_RAMP: why the payment (PIX, ACH, wire) came back' })),
    ),
    returnCode: Type.Optional(
      Nullable(
        Type.String({
          pattern: '^R[0-9]{2}$',
          description: 'OFF_RAMP returned over ACH: the Nacha return code the receiving bank gave',
          examples: ['R03'],
        }),
      ),
    ),
    timeline: Type.Array(Type.Object({ status: TransactionStatusSchema, at: DateTime() })),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    travelRule: Type.Optional(TravelRuleSchema),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'Transaction' },
);

export const ListTransactionsQuery = Type.Object(
  {
    ...ListQuery,
    customerId: Type.Optional(Uuid('Only the transactions of this customer (either side of a transfer)')),
    status: Type.Optional(TransactionStatusSchema),
    type: Type.Optional(StringEnum([...TRANSACTION_TYPES, 'TRANSFER', 'DEPOSIT'] as const)),
    currency: Type.Optional(
      StringEnum(CURRENCIES, {
        description: "The currency asked in: an on-ramp's BRL, an off-ramp's source, a transfer's stablecoin",
      }),
    ),
    createdFrom: Type.Optional(DateTime('Only the transactions created at or after this instant')),
    createdTo: Type.Optional(DateTime('Only the transactions created at or before this instant')),
  },
  { additionalProperties: false },
);
