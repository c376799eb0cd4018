/**
 * The status machine of a bank account's holder: a holder is APPROVED on
 * creation when the account is the customer's own and the customer is verified; otherwise it waits
 * UNDER_VERIFICATION for compliance to screen it, once, to APPROVED or FINAL_REJECTION.
 */
export const HOLDER_STATUSES = ['UNDER_VERIFICATION', 'APPROVED', 'FINAL_REJECTION'] as const;
export type HolderStatus = (typeof HOLDER_STATUSES)[number];

export const HOLDER_TRANSITIONS: Record<HolderStatus, readonly HolderStatus[]> = {
  UNDER_VERIFICATION: ['APPROVED', 'FINAL_REJECTION'],
  APPROVED: [],
  FINAL_REJECTION: [],
};

/** What a screening decides: where UNDER_VERIFICATION may go. */
export const HOLDER_REVIEW_OUTCOMES = [
  'APPROVED',
  'FINAL_REJECTION',
] as const satisfies readonly HolderStatus[];
export type HolderReviewOutcome = (typeof HOLDER_REVIEW_OUTCOMES)[number];

export const canMoveHolder = (from: HolderStatus, to: HolderStatus): boolean =>
  HOLDER_TRANSITIONS[from].includes(to);

/** A new account's holder: approved at once only for the verified customer's own account. */
export const initialHolderStatus = (ownAccount: boolean, ownerApproved: boolean): HolderStatus =>
  ownAccount && ownerApproved ? 'APPROVED' : 'UNDER_VERIFICATION';
