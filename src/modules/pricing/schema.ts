import { Type } from 'typebox';
import { CURRENCIES, PAIRS } from '../../core/currencies.ts';
import { DateTime, Nullable, StringEnum, Uuid } from '../../http/schemas.ts';
import { ANY_AMOUNT_PATTERN } from '../ledger/amounts.ts';
import { RATE_PATTERN } from './pricing.ts';
import { TIME_LOCKS } from './service.ts';

const Currency = (description: string) => StringEnum(CURRENCIES, { description });
const TIME_LOCK_VALUES = Object.keys(TIME_LOCKS) as (keyof typeof TIME_LOCKS)[];

export const Money = Type.Object({
  amount: Type.String({ examples: ['1.50'] }),
  currency: Currency('Currency of the amount'),
});

export const CreateExchangeRateBody = Type.Object(
  {
    type: StringEnum(['FLOATING', 'LOCKED'] as const, {
      description: 'FLOATING: indicative; LOCKED: guaranteed to one transaction until expiresAt',
    }),
    sourceCurrency: Currency('What the customer pays: BRL (on-ramp) or USDC/USDT (off-ramp)'),
    targetCurrency: Currency('What the customer receives; pairs: BRL→USDC, BRL→USDT, USDC→BRL, USDT→BRL'),
    sourceAmount: Type.Optional(
      Type.String({
        pattern: ANY_AMOUNT_PATTERN,
        description: 'Amount paid (exactly one of sourceAmount and targetAmount)',
        examples: ['1000.00'],
      }),
    ),
    targetAmount: Type.Optional(
      Type.String({
        pattern: ANY_AMOUNT_PATTERN,
        description: 'Amount received: the quote gives the smallest source amount that delivers it',
        examples: ['180.000000'],
      }),
    ),
    timeLock: Type.Optional(
      StringEnum(TIME_LOCK_VALUES, { description: 'How long a LOCKED rate holds (default 30s)' }),
    ),
  },
  { additionalProperties: false },
);

/** The market reference a quote or a receipt was priced from. */
export const PricedReference = Type.Object(
  {
    source: StringEnum(['CHAINLINK', 'PTAX', 'OPERATOR'] as const, {
      description: 'Where the mid came from: the market feeds, the official PTAX, or a rate the operator set',
    }),
    rate: Type.String({
      description: 'The reference mid, target units per source unit',
      examples: ['0.1899810018'],
    }),
    at: Nullable(DateTime('When the reference was last updated (null where not known)')),
  },
  { description: 'The market reference a price came from, before the spread and the fees' },
);

export const ExchangeRateSchema = Type.Object(
  {
    id: Uuid(),
    type: StringEnum(['FLOATING', 'LOCKED'] as const),
    sourceCurrency: Currency('Currency paid'),
    sourceAmount: Type.String({ examples: ['1000.00'] }),
    targetCurrency: Currency('Currency received'),
    targetAmount: Type.String({ examples: ['179.100000'] }),
    rate: Type.String({ description: 'Target units per source unit, after fees', examples: ['0.1791'] }),
    baseRate: Type.String({ description: 'Target units per source unit, before fees', examples: ['0.18'] }),
    fees: Type.Object({ platform: Money, partner: Money }, { description: 'Charged in the source currency' }),
    expiresAt: Nullable(DateTime('LOCKED: the quote is refused after this time; FLOATING: null')),
    reference: PricedReference,
    createdAt: DateTime(),
  },
  { $id: 'ExchangeRate' },
);

/** A market rate as the operator set it. */
export const Rate = Type.Object({
  id: Uuid(),
  pair: StringEnum(PAIRS),
  rate: Type.String({
    description:
      'Units of the target currency per 1 unit of the source currency (pair SOURCE/TARGET), exact decimal',
    examples: ['0.1834'],
  }),
  setBy: Type.String(),
  setAt: DateTime(),
  expiresAt: Nullable(
    DateTime(
      'Where quotes are priced from the market reference: when this override stops replacing the ' +
        "reference mid (null: a rate of an environment priced from the operator's rates, in force until replaced)",
    ),
  ),
  forced: Type.Boolean({ description: 'Set with force, outside the band around the reference' }),
  reason: Nullable(Type.String({ description: 'Why the operator set it' })),
});

export const SetRateBody = Type.Object(
  {
    pair: StringEnum(PAIRS),
    rate: Type.String({
      pattern: RATE_PATTERN,
      description:
        'Units of the target currency per 1 unit of the source: up to 8 digits and 10 decimals, above zero',
      examples: ['0.1834'],
    }),
    expiresAt: Type.Optional(
      DateTime(
        'Overrides of the market reference only: when the override stops applying (default 15 minutes ' +
          'from now; must be in the future)',
      ),
    ),
    force: Type.Optional(
      Type.Boolean({
        description:
          'Set the override even outside the band around the reference (PONTE_RATES_MAX_OVERRIDE_BPS) or ' +
          'while the pair has no usable reference; requires `reason`',
      }),
    ),
    reason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'Why; required with `force`, kept in the audit log',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ReferenceQuery = Type.Object(
  {
    pair: Type.Optional(
      StringEnum(PAIRS, { description: 'One pair (source/target), e.g. BRL/USDC; every pair when omitted' }),
    ),
  },
  { additionalProperties: false },
);

export const MarketReference = Type.Object({
  pair: StringEnum(PAIRS),
  source: StringEnum(['CHAINLINK', 'PTAX', 'OPERATOR'] as const, {
    description:
      'CHAINLINK: derived from the market feeds; OPERATOR: a rate the operator set (or the sandbox default)',
  }),
  usable: Type.Boolean({
    description: 'Whether quotes of the pair can be given now (else they answer 503 rates_unavailable)',
  }),
  rate: Nullable(
    Type.String({ description: 'The mid, target units per source unit', examples: ['0.1899810018'] }),
  ),
  at: Nullable(DateTime('When the reference was last updated')),
  ageSeconds: Nullable(Type.Integer({ minimum: 0, description: 'How old the reference is now' })),
  reason: Nullable(Type.String({ description: 'Why the pair has no usable reference' })),
});

export const MarketReferenceList = Type.Object({
  data: Type.Array(MarketReference),
  ptax: Nullable(
    Type.Object(
      {
        date: Type.String({ description: 'The business day of the bulletin', examples: ['2026-11-27'] }),
        buy: Type.String({ description: 'BRL per USD, buying', examples: ['5.1234'] }),
        sell: Type.String({ description: 'BRL per USD, selling', examples: ['5.124'] }),
      },
      {
        description:
          "The Banco Central's latest PTAX closing bulletin, the official reference beside the feeds",
      },
    ),
  ),
});
