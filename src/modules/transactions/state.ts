import { STABLECOINS, type Stablecoin } from '../../core/currencies.ts';
/**
 * What every transaction type shares of its states: the statuses, the shape of a flow's state machine
 * (each flow holds its own: on-ramp/state.ts, off-ramp/state.ts), and the statuses settlement carries on
 * or limits no longer count. The one gate every status change goes through is transition.ts.
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

/** A flow's state machine: for each status, the statuses it may move to. Each flow holds its own. */
export type StateMachine = {
  type: TransactionType;
  transitions: Record<TransactionStatus, readonly TransactionStatus[]>;
};

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
