/**
 * Group commit of money-movement creations (on-ramps, off-ramps): concurrent creations of different
 * customers run in one transaction (src/db/batches.ts). The transaction locks their customers in one
 * statement, reads what each creation decides on in one statement after the locks (so it sees every
 * movement committed before them, as a creation alone does), decides each one in the service, writes
 * every accepted one in one statement and stores each request's answer under its own `Idempotency-Key`
 * (its before-commit hook) before COMMIT. A refusal (unknown or unapproved customer, or whatever the
 * movement's own rules refuse) answers its request alone; the others commit.
 */
import type { Clock } from '../../core/clock.ts';
import { createBatches, type Outcome } from '../../db/batches.ts';
import type { BeforeCommit } from '../../db/commit-hooks.ts';
import type { Database, Transaction } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { approvedForMovements, type CustomerWithVerification, lockCustomers } from '../customers/service.ts';
import type { NewEvent } from '../events/outbox.ts';
import { complianceHold, heldSubjects } from '../screening/service.ts';
import type { TransactionView } from './presenter.ts';
import type { TransactionRow } from './repo.ts';

/**
 * Creations in one transaction at most, and such transactions under way at once per kind and
 * environment: a few batches keep PostgreSQL busy while the service prepares the next, well within
 * the pool.
 */
const BATCH_SIZE = 64;
const BATCHES_IN_FLIGHT = 4;

/** A creation as its request asks it, checked before any database work. */
export type CreationRequest = {
  tenant: Tenant;
  input: { customerId: string; bankAccountId?: string };
  /** The request's before-commit hook (its `Idempotency-Key`), called in the batch's transaction. */
  beforeCommit: BeforeCommit | undefined;
};

/** The `transaction.created` event of a new transaction, as its view answers it. */
export const createdEvent = (row: TransactionRow, view: TransactionView): NewEvent => ({
  tenant: { projectId: row.project_id, environment: row.environment },
  type: 'transaction.created',
  resourceType: 'transaction',
  resourceId: row.id,
  data: view,
  at: row.created_at,
});

export type Approved<R> = { request: R; customer: CustomerWithVerification };

export type CreationSteps<R extends CreationRequest, Facts, Decided extends { view: TransactionView }> = {
  db: Database;
  clock: Clock;
  /** What the movements are called in a refusal ("on-ramps"). */
  movements: string;
  /** What each creation decides on, one per approved request, in order, read after the locks. */
  read: (tx: Transaction, approved: Approved<R>[], now: Date) => Promise<Facts[]>;
  /** One creation's decision (throws its refusal). */
  decide: (request: R, customer: CustomerWithVerification, facts: Facts, now: Date) => Decided;
  /** Writes every accepted creation, in one statement. */
  write: (tx: Transaction, accepted: Decided[], now: Date) => Promise<void>;
  /** One creation in a transaction of its own: when its batch failed. */
  createOne: (request: R) => Promise<TransactionView>;
};

export function creationBatches<R extends CreationRequest, Facts, Decided extends { view: TransactionView }>(
  steps: CreationSteps<R, Facts, Decided>,
) {
  const { db, clock, movements, read, decide, write } = steps;

  async function createMany(requests: R[]): Promise<Outcome<TransactionView>[]> {
    return db.transaction(async (tx) => {
      const outcomes: Outcome<TransactionView>[] = [];
      const refuse = (index: number, error: unknown) => {
        outcomes[index] = { ok: false, error };
      };
      const locked = await lockCustomers(
        tx,
        requests.map(({ tenant, input }) => ({ tenant, id: input.customerId })),
      );
      const byId = new Map(locked.map((customer) => [customer.id, customer]));
      const approved: (Approved<R> & { index: number })[] = [];
      requests.forEach((request, index) => {
        try {
          const customer = approvedForMovements(byId.get(request.input.customerId), movements);
          approved.push({ index, request, customer });
        } catch (error) {
          refuse(index, error);
        }
      });
      // customers (or payout accounts' holders) on compliance hold move nothing
      const holds = await heldSubjects(
        tx,
        approved.map(({ customer }) => customer.id),
        approved.flatMap(({ request }) => (request.input.bankAccountId ? [request.input.bankAccountId] : [])),
      );
      const holdOf = (request: R) =>
        holds.find((hold) =>
          hold.subject_type === 'BANK_ACCOUNT_HOLDER'
            ? hold.subject_id === request.input.bankAccountId
            : hold.customer_id === request.input.customerId,
        );
      for (let i = approved.length - 1; holds.length > 0 && i >= 0; i--) {
        const hold = holdOf(approved[i]!.request);
        if (!hold) continue;
        refuse(approved[i]!.index, complianceHold(hold));
        approved.splice(i, 1);
      }
      if (approved.length === 0) return outcomes;
      const now = clock();
      const facts = await read(tx, approved, now);
      const accepted: (Decided & { index: number })[] = [];
      approved.forEach(({ index, request, customer }, position) => {
        try {
          accepted.push({ ...decide(request, customer, facts[position]!, now), index });
        } catch (error) {
          refuse(index, error);
        }
      });
      if (accepted.length === 0) return outcomes;
      await write(tx, accepted, now);
      for (const { index, view } of accepted) {
        await requests[index]!.beforeCommit?.(tx, view);
        outcomes[index] = { ok: true, value: view };
      }
      return outcomes;
    });
  }

  return createBatches<R, TransactionView>({
    run: createMany,
    runOne: steps.createOne,
    keyOf: (request) => request.input.customerId,
    size: BATCH_SIZE,
    inFlight: BATCHES_IN_FLIGHT,
  });
}
