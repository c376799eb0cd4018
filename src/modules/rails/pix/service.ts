/** The rail's surface for other modules: what they may read and write of its records. */

export {
  findPayout,
  insertPayout,
  markSubmitted,
  payoutKeyOfEndToEndId,
  payoutsOf,
  pendingSends,
  recordPspEndToEndId,
} from './payout-repo.ts';

export { recordUnreadableItem, refundableDeposits } from './repo.ts';
