/**
 * Carries funded transactions forward, one step per database transaction, each under the transaction's
 * row lock: the request that funded a transaction runs its steps right away; a worker finishes whatever
 * a crash or a failure left in flight. Each flow owns its steps (on-ramp/settlement.ts,
 * off-ramp/settlement.ts); each step checks the status it starts from, so running it twice, or from two
 * processes, does it once.
 */
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { Database, Executor } from '../../db/types.ts';
import { claimInFlight, lockTransaction, type TransactionRow } from './repo.ts';
import { IN_FLIGHT, type TransactionType } from './state.ts';

export type SettlementDeps = { db: Database; clock: Clock; log: Logger };

/** The next step of a locked transaction; one not in flight is returned as it is. */
export type SettlementStep = (tx: Executor, row: TransactionRow, at: Date) => Promise<TransactionRow>;

/**
 * Runs every remaining step of one transaction, each in its own database transaction. A step that
 * leaves it where it was waits on the chain send it names, if any: `stalled` carries that send on.
 */
export async function settle(
  deps: SettlementDeps,
  id: string,
  step: SettlementStep,
  stalled?: (send: string) => Promise<void>,
): Promise<void> {
  const { db, clock } = deps;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const row = await lockTransaction(tx, id);
      if (!row) return null;
      const next = await step(tx, row, clock());
      return { moved: next.status !== row.status, status: next.status, send: next.chain_send_id };
    });
    if (done === null) return;
    if (!done.moved) {
      // waiting for its on-chain delivery: carry the send as far as it goes now
      if (done.send && stalled) await stalled(done.send);
      return;
    }
    if (!IN_FLIGHT.includes(done.status)) return;
  }
}

/**
 * Settles a transaction that has just been funded, for the request that funded it. The deposit is
 * already committed, so an unexpected error here only delays settlement: the worker carries the
 * transaction on, and the caller answers with the state reached so far.
 */
export async function settleNow(
  deps: SettlementDeps,
  id: string,
  step: SettlementStep,
  stalled?: (send: string) => Promise<void>,
): Promise<void> {
  try {
    await settle(deps, id, step, stalled);
  } catch (err) {
    // left in flight for settleInFlight
    deps.log.error({ err, transactionId: id }, 'settlement stopped; the workers carry the transaction on');
  }
}

/**
 * Worker: carries forward up to `batch` in-flight steps, each by the steps of its type; safe on several
 * processes (SKIP LOCKED).
 */
export async function settleInFlight(
  deps: SettlementDeps,
  steps: Record<TransactionType, SettlementStep>,
  batch = 50,
): Promise<number> {
  const { db, clock } = deps;
  let done = 0;
  while (done < batch) {
    const moved = await db.transaction(async (tx) => {
      const row = await claimInFlight(tx);
      if (!row) return false;
      await steps[row.type](tx, row, clock());
      return true;
    });
    if (!moved) break;
    done++;
  }
  return done;
}
