/**
 * Why a transaction FAILED or EXPIRED (or a US bank payout was RETURNED), as a stable snake_case code beside its human `failureReason`
 * (which may change wording): a partner's code branches on these.
 */
export const FAILURE_CODES = [
  /** ON_RAMP: no deposit arrived within the deposit window. */
  'deposit_window_expired',
  /** ON_RAMP: the deposit arrived after the window closed (held for refund). */
  'deposit_after_expiry',
  /** ON_RAMP: the deposit's amount differs from the charge's (held for refund). */
  'deposit_amount_mismatch',
  /** ON_RAMP: no market rate was set for the pair when the deposit traded (held for refund). */
  'rate_unavailable',
  /** ON_RAMP: the deposit converts to no representable amount of the stablecoin (held for refund). */
  'conversion_unrepresentable',
  /** ON_RAMP: the stablecoin transfer to the customer's wallet failed on chain. */
  'stablecoin_delivery_failed',
  /** OFF_RAMP: the payment (PIX, ACH or wire) was rejected (the reserve went back to the balance). */
  'payout_rejected',
  /** OFF_RAMP, RETURNED: the receiving bank returned the ACH payout; `returnCode` holds its Nacha code. */
  'ach_returned',
  /** OFF_RAMP, RETURNED: the receiving bank reversed the wire payout. */
  'wire_reversed',
  /** TRANSFER: the transfer failed on chain (its amount went back to the wallet). */
  'chain_transfer_failed',
  /** DEPOSIT: a chain reorganisation removed the transfer before it was confirmed. */
  'chain_reorganized',
  /**
   * Any type: a compliance review confirmed a sanctions screening match while the money was held; nothing
   * left (a reserve went back to the balance; a deposit is not credited).
   */
  'compliance_refused',
] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];
