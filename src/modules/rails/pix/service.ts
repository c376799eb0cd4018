/**
 * The PIX rail's surface for the other modules: the payouts it carries (off-ramps and refunds) and the
 * deposits it received that can be sent back.
 */
export { insertPayout, payoutsOf } from './payout-repo.ts';
export { refundableDeposits } from './repo.ts';
