/**
 * Work that must commit with whatever transaction a caller runs, without the caller knowing of it.
 * A caller (the idempotency layer, for one request) runs code under `withBeforeCommit(hook, ...)`;
 * every `db.transaction` opened inside that code, on either driver, calls the hook with the open
 * transaction and the value its work returned, after the work and before COMMIT. A hook that throws
 * rolls the transaction back like a failing statement would.
 *
 * A transaction whose value is not what its caller finally answers (it returns ids or rows that are
 * presented later) names its answer with `withAnswer`; the hook then sees that answer instead.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Queryable } from './types.ts';

export type BeforeCommit = (tx: Queryable, result: unknown) => Promise<void>;

const scope = new AsyncLocalStorage<BeforeCommit>();

const ANSWER = Symbol('answer');

/** `value`, carrying `answer` (the resource as the caller will answer it) for the before-commit hook. */
export function withAnswer<T extends object>(value: T, answer: unknown): T {
  Object.defineProperty(value, ANSWER, { value: answer, enumerable: false });
  return value;
}

/** Runs `fn` (and everything it starts) with `hook` called before each of its transactions commits. */
export function withBeforeCommit<T>(hook: BeforeCommit, fn: () => T): T {
  return scope.run(hook, fn);
}

/** Called by the drivers between a transaction's work and its COMMIT. */
export async function runBeforeCommit(tx: Queryable, result: unknown): Promise<void> {
  const hook = scope.getStore();
  if (!hook) return;
  const named = result !== null && typeof result === 'object' && ANSWER in result;
  await hook(tx, named ? (result as { [ANSWER]: unknown })[ANSWER] : result);
}

/** The hook the current caller runs under, if any: to be called by work that runs outside its context. */
export function currentBeforeCommit(): BeforeCommit | undefined {
  return scope.getStore();
}
