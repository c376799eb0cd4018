/** The transaction types a partner fee is set for, and the terms of a fee (none: nothing charged). */
export const FEE_TRANSACTION_TYPES = ['ON_RAMP', 'OFF_RAMP'] as const;
export type FeeTransactionType = (typeof FEE_TRANSACTION_TYPES)[number];

export type PartnerFeeTerms = { basisPoints: number; flat: bigint };
export const NO_PARTNER_FEE: PartnerFeeTerms = { basisPoints: 0, flat: 0n };
