/**
 * Group commit of money-movement creations (on-ramps, off-ramps): concurrent creations of different
 * customers run in one transaction (src/db/batches.ts). The transaction locks their customers in one
 * statement, reads what each creation decides on in one statement after the locks (so it sees every
 * movement committed before them; the movement's facts, combined by `readEach`), decides each one in
 * the service, writes every accepted one in one statement (`writeAll`) and stores each request's answer
 * under its own `Idempotency-Key` (its before-commit hook) before COMMIT. A refusal (unknown or
 * unapproved customer, or whatever the movement's own rules refuse) answers its request alone; the
 * others commit.
 *
 * A creation alone is a batch of one, in the same statements: `alone` runs it in a transaction of its
 * own (a creation with a LOCKED quote, which uses the quote up in its own statement; or one whose batch
 * failed), where its refusal rolls back whatever its decision did.
 */
import type { Clock } from '../../core/clock.ts';
import { createBatches, type Outcome } from '../../db/batches.ts';
import type { BeforeCommit } from '../../db/commit-hooks.ts';
import {
  type AnswersOf,
  type AnyReadFact,
  type CombinedFacts,
  type InputsOf,
  readEach,
  type StatementPart,
  writeAll,
  writing,
} from '../../db/one-statement.ts';
import type { Database, Transaction } from '../../db/types.ts';
import type { Tenant } from '../../lib/environment.ts';
import { approvedForMovements, type CustomerWithVerification, lockCustomers } from '../customers/service.ts';
import { insertEventsFact, type NewEvent } from '../events/outbox.ts';
import { addUsageFact, usageAdded } from '../limits/usage.ts';
import { complianceHold, heldSubjects } from '../screening/service.ts';
import type { TransactionView } from './presenter.ts';
import { insertTransactionsFact, type TransactionRow } from './repo.ts';

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

export type CreationSteps<
  R extends CreationRequest,
  Facts extends Record<string, AnyReadFact>,
  Decided extends { row: TransactionRow; view: TransactionView },
> = {
  db: Database;
  clock: Clock;
  /** What the movements are called in a refusal ("on-ramps"). */
  movements: string;
  /** What each creation decides on, read after the locks in one statement: the facts and their inputs. */
  facts: CombinedFacts<Facts>;
  inputs: (approved: Approved<R>, now: Date) => InputsOf<Facts>;
  /**
   * One creation's decision (throws its refusal). It may use up what is its own alone in the
   * transaction (a LOCKED quote, in a creation that runs `alone`).
   */
  decide: (
    tx: Transaction,
    request: R,
    customer: CustomerWithVerification,
    facts: AnswersOf<Facts>,
    now: Date,
  ) => Decided | Promise<Decided>;
  /** The BRL value (cents) a creation adds to its customer's limit usage. */
  limitAmount: (row: TransactionRow) => bigint;
  /** What accepted creations write besides their rows, limit usage and events (a reserve's journals). */
  alsoWrites?: (accepted: Decided[]) => StatementPart[];
};

export function creationBatches<
  R extends CreationRequest,
  Facts extends Record<string, AnyReadFact>,
  Decided extends { row: TransactionRow; view: TransactionView },
>(steps: CreationSteps<R, Facts, Decided>) {
  const { db, clock, movements, decide } = steps;

  /**
   * The creations of `requests` (customers distinct) in `tx`: one outcome each. `hooks`: each accepted
   * request's before-commit hook is called here (a batch, outside any request's context); a creation
   * alone runs in its request's context, where the transaction calls it.
   */
  async function createIn(
    tx: Transaction,
    requests: R[],
    hooks: boolean,
  ): Promise<Outcome<TransactionView>[]> {
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
    const facts = await readEach(
      tx,
      steps.facts,
      approved.map((one) => steps.inputs(one, now)),
    );
    const accepted: (Decided & { index: number })[] = [];
    for (const [position, { index, request, customer }] of approved.entries()) {
      try {
        accepted.push({ ...(await decide(tx, request, customer, facts[position]!, now)), index });
      } catch (error) {
        refuse(index, error);
      }
    }
    if (accepted.length === 0) return outcomes;
    // the transactions, their BRL values added to the limit usage, whatever else the kind writes, and
    // the events: one statement
    await writeAll(tx, [
      writing(
        insertTransactionsFact,
        accepted.map(({ row }) => row),
      ),
      writing(
        addUsageFact,
        accepted.map(({ row }) => usageAdded(row.customer_id, steps.limitAmount(row), now)),
      ),
      ...(steps.alsoWrites?.(accepted) ?? []),
      writing(
        insertEventsFact,
        accepted.map(({ row, view }) => createdEvent(row, view)),
      ),
    ]);
    for (const { index, view } of accepted) {
      if (hooks) await requests[index]!.beforeCommit?.(tx, view);
      outcomes[index] = { ok: true, value: view };
    }
    return outcomes;
  }

  /** One creation, a batch of one in a transaction of its own: its refusal rolls the transaction back. */
  function alone(request: R): Promise<TransactionView> {
    return db.transaction(async (tx) => {
      const [outcome] = await createIn(tx, [request], false);
      if (!outcome!.ok) throw outcome!.error;
      return outcome!.value;
    });
  }

  const batches = createBatches<R, TransactionView>({
    run: (requests) => db.transaction((tx) => createIn(tx, requests, true)),
    runOne: alone,
    keyOf: (request) => request.input.customerId,
    size: BATCH_SIZE,
    inFlight: BATCHES_IN_FLIGHT,
  });

  return { submit: (request: R) => batches.submit(request), alone };
}
