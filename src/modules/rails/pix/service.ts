/** The rail's surface for other modules: what they may read and write of its records. */

export { insertPayout, payoutsOf } from './payout-repo.ts';

export { refundableDeposits } from './repo.ts';
