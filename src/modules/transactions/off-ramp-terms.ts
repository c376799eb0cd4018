/** What an off-ramp is for (its purpose, as the partner declares it) and the balances it pays out from. */
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

/** Stablecoins, or the customer's own fiat paid out as it is (BRL over PIX; USD a bank sent back, over ACH or wire). */
export const OFF_RAMP_SOURCES = ['USDC', 'USDT', 'BRL', 'USD'] as const;
