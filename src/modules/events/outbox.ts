/**
 * The transactional outbox. A service records the event in the same database transaction as the state
 * change it reports, so an event exists exactly when its change committed. Delivery reads from here.
 */

import { newId } from '../../core/ids.ts';
import { writeAll, writing } from '../../db/one-statement.ts';
import type { Executor } from '../../db/types.ts';
import { insertEventsFact, type NewEvent } from './repo.ts';

export { EVENT_TYPES, type EventType } from '../../core/event-types.ts';
/** What a creation writes of its events, with its other writes. */
export { insertEventsFact, type NewEvent } from './repo.ts';

export async function recordEvent(db: Executor, event: NewEvent): Promise<string> {
  const id = newId();
  await writeAll(db, [writing(insertEventsFact, [{ ...event, id }])]);
  return id;
}
