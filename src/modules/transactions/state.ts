import { STABLECOINS, type Stablecoin } from '../../core/currencies.ts';
import { OFF_RAMP_TRANSITIONS } from './off-ramp-state.ts';
/**
 * The transaction state machines. On-ramps (PRODUCT.md, "On-ramp transactions") (PRODUCT.md, "On-ramp transactions"). A deposit moves a charge from
 * AWAITING_FUNDS into TRANSFERRING_FIAT; settlement carries it through TRADING and
 * TRANSFERRING_STABLECOIN to SUCCESS. Any step after the deposit may FAIL; only a charge still waiting
 * for its deposit may EXPIRE. SUCCESS, FAILED and EXPIRED are final.
 */
export const TRANSACTION_STATUSES = [
  'AWAITING_FUNDS',
  'TRANSFERRING_FIAT',
  'TRADING',
  'TRANSFERRING_STABLECOIN',
  'SUCCESS',
  'FAILED',
  'EXPIRED',
  'RETURNED',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const TRANSACTION_TYPES = ['ON_RAMP', 'OFF_RAMP'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

type Transitions = Record<TransactionStatus, readonly TransactionStatus[]>;

export const TRANSACTION_TRANSITIONS: Transitions = {
  AWAITING_FUNDS: ['TRANSFERRING_FIAT', 'EXPIRED'],
  TRANSFERRING_FIAT: ['TRADING', 'FAILED'],
  TRADING: ['TRANSFERRING_STABLECOIN', 'FAILED'],
  TRANSFERRING_STABLECOIN: ['SUCCESS', 'FAILED'],
  SUCCESS: [],
  FAILED: [],
  EXPIRED: [],
  RETURNED: [],
};

const TRANSITIONS_BY_TYPE: Record<TransactionType, Transitions> = {
  ON_RAMP: TRANSACTION_TRANSITIONS,
  OFF_RAMP: OFF_RAMP_TRANSITIONS,
};

export const canTransition = (
  type: TransactionType,
  from: TransactionStatus,
  to: TransactionStatus,
): boolean => TRANSITIONS_BY_TYPE[type][from].includes(to);

/** Statuses that settlement carries forward on its own, once the deposit is in. */
export const IN_FLIGHT: readonly TransactionStatus[] = [
  'TRANSFERRING_FIAT',
  'TRADING',
  'TRANSFERRING_STABLECOIN',
];

/** Statuses whose amounts do not count against a customer's limits. */
export const NOT_COUNTED: readonly TransactionStatus[] = ['FAILED', 'EXPIRED'];

/** What an on-ramp converts into: a stablecoin. */
export const TARGET_CURRENCIES = STABLECOINS;
export type TargetCurrency = Stablecoin;
