/**
 * Dollars out behind the fiat-rail seam (rails/fiat-rail.ts): an off-ramp's USD paid to a US bank account
 * over ACH or wire. Two implementations: the sandbox's own simulation (sandbox-payout.ts) and Increase
 * (increase-payout.ts). A payout's key is derived from its off-ramp (`usdPayoutKey`), so a payment asked
 * for again after a crash or a lost answer is the same payment.
 */
import type { PayoutRail } from '../fiat-rail.ts';
import { payoutIdempotencyKey } from '../increase/payouts.ts';

/** A US bank account as a payout names it: the receiving bank, the account, and its holder. */
export type UsdDestination = {
  rail: 'ACH' | 'WIRE';
  /** The ABA routing number, nine digits. */
  routingNumber: string;
  accountNumber: string;
  accountType: 'CHECKING' | 'SAVINGS';
  /** The holder's legal name, and whether a person or a company holds the account. */
  name: string;
  holderType: 'INDIVIDUAL' | 'BUSINESS';
  address: { line1: string; city: string; state: string; postalCode: string; country: string };
};

export type UsdPayoutRail = PayoutRail<UsdDestination>;

/** The key of an off-ramp's USD payout: one per off-ramp, the idempotency key Increase is given. */
export const usdPayoutKey = (offRampId: string): string => payoutIdempotencyKey(offRampId);
