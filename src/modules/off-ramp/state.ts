/**
 * The off-ramp's state machine: the balance is reserved on creation (TRANSFERRING_STABLECOIN), converted
 * at TRADING, paid out over PIX in TRANSFERRING_FIAT, and SUCCESS once the rail confirms the payment. Any
 * step before SUCCESS may FAIL (the reserve goes back to the balance); SUCCESS becomes RETURNED when the
 * receiving bank sends the PIX back. Every move goes through the one gate (transactions/transition.ts).
 */
import type { Executor } from '../../db/types.ts';
import type { TransactionRow } from '../transactions/read-service.ts';
import type { StateMachine, TransactionStatus } from '../transactions/state.ts';
import { type StepChanges, transitionTransaction } from '../transactions/transition.ts';

export const OFF_RAMP_STATES: StateMachine = {
  type: 'OFF_RAMP',
  transitions: {
    AWAITING_FUNDS: [],
    TRANSFERRING_STABLECOIN: ['TRADING', 'FAILED'],
    TRADING: ['TRANSFERRING_FIAT', 'FAILED'],
    TRANSFERRING_FIAT: ['SUCCESS', 'FAILED'],
    SUCCESS: ['RETURNED'],
    FAILED: [],
    EXPIRED: [],
    RETURNED: [],
  },
};

/** Moves a locked off-ramp to `to`, with its event, in the caller's transaction. */
export const moveOffRamp = (
  tx: Executor,
  row: TransactionRow,
  to: TransactionStatus,
  at: Date,
  changes?: StepChanges,
): Promise<TransactionRow> => transitionTransaction(tx, OFF_RAMP_STATES, row, to, at, changes);
