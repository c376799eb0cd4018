/**
 * The off-ramp state machine (PRODUCT.md, "Off-ramp"): the balance is reserved on creation
 * (TRANSFERRING_STABLECOIN), converted at TRADING, paid out over PIX in TRANSFERRING_FIAT, and SUCCESS
 * once the rail confirms the payment. Any step before SUCCESS may FAIL (the reserve goes back to the
 * balance); SUCCESS becomes RETURNED when the receiving bank sends the PIX back.
 */
import type { TransactionStatus } from './state.ts';

export const OFF_RAMP_TRANSITIONS: Record<TransactionStatus, readonly TransactionStatus[]> = {
  AWAITING_FUNDS: [],
  TRANSFERRING_STABLECOIN: ['TRADING', 'FAILED'],
  TRADING: ['TRANSFERRING_FIAT', 'FAILED'],
  TRANSFERRING_FIAT: ['SUCCESS', 'FAILED'],
  SUCCESS: ['RETURNED'],
  FAILED: [],
  EXPIRED: [],
  RETURNED: [],
};

export const OFF_RAMP_PURPOSES = [
  'PERSONAL_ACCOUNT',
  'INVESTMENT',
  'REAL_ESTATE',
  'TRADE_TRANSACTIONS',
  'TAX',
  'LOAN',
  'BILLS',
  'EXPENSES_REIMBURSEMENT',
  'PROFESSIONAL_SERVICES',
] as const;
export type OffRampPurpose = (typeof OFF_RAMP_PURPOSES)[number];

export const OFF_RAMP_SOURCES = ['USDC', 'USDT', 'BRL'] as const;
