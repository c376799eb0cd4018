/**
 * Group commit: concurrent calls of the same kind run together, one database transaction for several,
 * so that the fixed costs of a transaction (its round trips, each statement's start and the commit's
 * flush) are paid once for all of them instead of once each.
 *
 * A call is queued; a batch starts at once when fewer than `inFlight` batches run, and otherwise when
 * one of them ends, taking what queued meanwhile (up to `size` calls, at most one per key when calls
 * have keys: calls with the same key, such as two movements of one customer, always run in different
 * batches, whose own locks then order them; calls without, such as reads, never exclude each other). No
 * call waits for a timer: alone, a call runs at once in a batch of one.
 *
 * `run` answers one outcome per call, in order: a call's own refusal (an error for it alone) does not
 * touch the others. When `run` itself fails (the batch's transaction rolled back), every call of the
 * batch is run again on its own through `runOne`, so one call's failure never becomes another's.
 *
 * `run` runs outside the asynchronous context of any call (whichever call happened to start the batch),
 * so that nothing scoped to one request (a before-commit hook) acts on the others; `runOne` runs in its
 * own call's context, as the call would have run without batches.
 */
import { AsyncResource } from 'node:async_hooks';

export type Outcome<O> = { ok: true; value: O } | { ok: false; error: unknown };

export type BatchOptions<I, O> = {
  run: (items: I[]) => Promise<Outcome<O>[]>;
  runOne: (item: I) => Promise<O>;
  /** What a batch holds at most one call of; without it, any calls may share a batch. */
  keyOf?: (item: I) => string;
  size: number;
  inFlight: number;
};

type Waiting<I, O> = {
  item: I;
  key: string | undefined;
  context: AsyncResource;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
};

/** The context of this module's loading: no request's. */
const outside = new AsyncResource('batch');

export function createBatches<I, O>(options: BatchOptions<I, O>) {
  const { run, runOne, keyOf, size, inFlight } = options;
  let queue: Waiting<I, O>[] = [];
  let running = 0;

  function next(): void {
    while (running < inFlight && queue.length > 0) {
      const batch: Waiting<I, O>[] = [];
      const keys = new Set<string>();
      const rest: Waiting<I, O>[] = [];
      for (const waiting of queue) {
        if (batch.length < size && (waiting.key === undefined || !keys.has(waiting.key))) {
          if (waiting.key !== undefined) keys.add(waiting.key);
          batch.push(waiting);
        } else rest.push(waiting);
      }
      queue = rest;
      running++;
      void settle(batch).finally(() => {
        running--;
        next();
      });
    }
  }

  async function settle(batch: Waiting<I, O>[]): Promise<void> {
    let outcomes: Outcome<O>[];
    try {
      outcomes = await outside.runInAsyncScope(() => run(batch.map((waiting) => waiting.item)));
    } catch {
      await Promise.all(
        batch.map((waiting) =>
          Promise.resolve()
            .then(() => waiting.context.runInAsyncScope(() => runOne(waiting.item)))
            .then(waiting.resolve, waiting.reject),
        ),
      );
      return;
    }
    batch.forEach((waiting, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome ? outcome.error : new Error('the batch answered no outcome for this call'));
    });
  }

  return {
    submit(item: I): Promise<O> {
      return new Promise<O>((resolve, reject) => {
        const context = new AsyncResource('batch-call');
        queue.push({ item, key: keyOf?.(item), context, resolve, reject });
        next();
      });
    },
  };
}
