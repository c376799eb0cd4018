/**
 * The on-ramp's state machine: a deposit moves a charge from AWAITING_FUNDS into TRANSFERRING_FIAT;
 * settlement carries it through TRADING and TRANSFERRING_STABLECOIN to SUCCESS. Any step after the
 * deposit may FAIL; only a charge still waiting for its deposit may EXPIRE. SUCCESS, FAILED and EXPIRED
 * are final. Every move goes through the one gate (transactions/transition.ts).
 */
import type { Executor } from '../../db/types.ts';
import type { TransactionRow } from '../transactions/read-service.ts';
import type { StateMachine, TransactionStatus } from '../transactions/state.ts';
import { type StepChanges, transitionTransaction } from '../transactions/transition.ts';

export const ON_RAMP_STATES: StateMachine = {
  type: 'ON_RAMP',
  transitions: {
    AWAITING_FUNDS: ['TRANSFERRING_FIAT', 'EXPIRED'],
    TRANSFERRING_FIAT: ['TRADING', 'FAILED'],
    TRADING: ['TRANSFERRING_STABLECOIN', 'FAILED'],
    TRANSFERRING_STABLECOIN: ['SUCCESS', 'FAILED'],
    SUCCESS: [],
    FAILED: [],
    EXPIRED: [],
    RETURNED: [],
  },
};

/** Moves a locked on-ramp to `to`, with its event, in the caller's transaction. */
export const moveOnRamp = (
  tx: Executor,
  row: TransactionRow,
  to: TransactionStatus,
  at: Date,
  changes?: StepChanges,
): Promise<TransactionRow> => transitionTransaction(tx, ON_RAMP_STATES, row, to, at, changes);
