/**
 * Reading back the object a webhook names (https://increase.com/documentation/webhooks: the event only
 * names it). What can go wrong says nothing about the object, only when to ask again:
 * - 404: the event came before its object could be read (look again later);
 * - no answer in time, a dropped connection, a 5xx, a timeout (408) or a throttle (429): Increase did not
 *   answer this time (https://increase.com/documentation/api#errors).
 * Anything else (a refused API key, a malformed id) is a fault of Ponte's and is thrown.
 */
import { APIConnectionError, APIError } from 'increase';

export type ReadBackFailure = { kind: 'NOT_YET_READABLE' } | { kind: 'UNANSWERED'; detail: string };
export type ReadBack<T> = { kind: 'READ'; value: T } | ReadBackFailure;

/** Statuses that mean "ask again", not "this request is wrong". */
const TRY_AGAIN = new Set([408, 429]);

export async function readBack<T>(read: () => Promise<T>): Promise<ReadBack<T>> {
  try {
    return { kind: 'READ', value: await read() };
  } catch (error) {
    // APIConnectionTimeoutError is an APIConnectionError: the SDK gave up waiting
    if (error instanceof APIConnectionError) return { kind: 'UNANSWERED', detail: error.message };
    if (error instanceof APIError) {
      if (error.status === 404) return { kind: 'NOT_YET_READABLE' };
      if (error.status === undefined || error.status >= 500 || TRY_AGAIN.has(error.status))
        return { kind: 'UNANSWERED', detail: error.message };
    }
    throw error;
  }
}
