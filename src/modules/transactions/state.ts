import { STABLECOINS, type Stablecoin } from '../../core/currencies.ts';
/**
 * The transaction state machines, one per type, read by the one gate every status change goes through
 * (transition.ts). On-ramps: a deposit moves a charge from
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

/**
 * The off-ramp state machine: the balance is reserved on creation
 * (TRANSFERRING_STABLECOIN), converted at TRADING, paid out over PIX in TRANSFERRING_FIAT, and SUCCESS
 * once the rail confirms the payment. Any step before SUCCESS may FAIL (the reserve goes back to the
 * balance); SUCCESS becomes RETURNED when the receiving bank sends the PIX back.
 */
export const OFF_RAMP_TRANSITIONS: Transitions = {
  AWAITING_FUNDS: [],
  TRANSFERRING_STABLECOIN: ['TRADING', 'FAILED'],
  TRADING: ['TRANSFERRING_FIAT', 'FAILED'],
  TRANSFERRING_FIAT: ['SUCCESS', 'FAILED'],
  SUCCESS: ['RETURNED'],
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
