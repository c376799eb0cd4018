/**
 * The on-ramp state machine (PRODUCT.md, "On-ramp transactions"). A deposit moves a charge from
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
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const TRANSACTION_TRANSITIONS: Record<TransactionStatus, readonly TransactionStatus[]> = {
  AWAITING_FUNDS: ['TRANSFERRING_FIAT', 'EXPIRED'],
  TRANSFERRING_FIAT: ['TRADING', 'FAILED'],
  TRADING: ['TRANSFERRING_STABLECOIN', 'FAILED'],
  TRANSFERRING_STABLECOIN: ['SUCCESS', 'FAILED'],
  SUCCESS: [],
  FAILED: [],
  EXPIRED: [],
};

export const canTransition = (from: TransactionStatus, to: TransactionStatus): boolean =>
  TRANSACTION_TRANSITIONS[from].includes(to);

/** Statuses that settlement carries forward on its own, once the deposit is in. */
export const IN_FLIGHT: readonly TransactionStatus[] = [
  'TRANSFERRING_FIAT',
  'TRADING',
  'TRANSFERRING_STABLECOIN',
];

/** Statuses whose amounts do not count against a customer's limits. */
export const NOT_COUNTED: readonly TransactionStatus[] = ['FAILED', 'EXPIRED'];

export const TARGET_CURRENCIES = ['USDC', 'USDT'] as const;
export type TargetCurrency = (typeof TARGET_CURRENCIES)[number];
