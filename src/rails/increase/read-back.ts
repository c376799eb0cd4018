/**
 * Reading back the object a webhook names (https://increase.com/documentation/webhooks: the event only
 * names it). What can go wrong says nothing about the object, only when to ask again:
 * - 404: the event came before its object could be read (look again later);
 * - no answer in time, a dropped connection, a 5xx, a timeout (408) or a throttle (429): Increase did not
 *   answer this time (https://increase.com/documentation/api#errors).
 * Anything else (a refused API key, a malformed id) is a fault of Ponte's and is thrown.
 */
import { APIError } from 'increase';

export type ReadBackFailure = { kind: 'NOT_YET_READABLE' } | { kind: 'UNANSWERED'; detail: string };
export type ReadBack<T> = { kind: 'READ'; value: T } | ReadBackFailure;

/**
 * Whether a failed call got no answer about its request: no answer in time or a dropped connection (the
 * SDK's APIConnectionError and APIConnectionTimeoutError, which carry no status), a 5xx, a timeout (408) or
 * a throttle (429) (https://increase.com/documentation/api#errors). Asked again, it may succeed.
 */
export function unanswered(error: unknown): error is APIError {
  if (!(error instanceof APIError)) return false;
  const { status } = error;
  return status === undefined || status >= 500 || status === 408 || status === 429;
}

export async function readBack<T>(read: () => Promise<T>): Promise<ReadBack<T>> {
  try {
    return { kind: 'READ', value: await read() };
  } catch (error) {
    if (unanswered(error)) return { kind: 'UNANSWERED', detail: error.message };
    if (error instanceof APIError && error.status === 404) return { kind: 'NOT_YET_READABLE' };
    throw error;
  }
}
