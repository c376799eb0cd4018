import { AppError } from '../../core/errors.ts';
import type { ListFilter } from './repo.ts';

/**
 * The filter of `GET /transactions` from its query: the same filter the dashboard's list uses. Both
 * bounds of the creation instants are inclusive (instants carry milliseconds, the precision stored).
 */
export function listFilter(query: {
  customerId?: string | undefined;
  status?: string | undefined;
  type?: string | undefined;
  currency?: string | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}): ListFilter {
  const createdFrom = query.createdFrom === undefined ? undefined : new Date(query.createdFrom);
  const createdTo = query.createdTo === undefined ? undefined : new Date(query.createdTo);
  if (createdFrom && createdTo && createdTo < createdFrom) {
    throw new AppError('invalid_request', 'createdTo is before createdFrom', {
      errors: [{ pointer: '/query/createdTo', message: 'must not be before createdFrom' }],
    });
  }
  return {
    customerId: query.customerId,
    status: query.status,
    type: query.type,
    currency: query.currency,
    createdFrom,
    // inclusive: everything before the next millisecond
    createdBefore: createdTo ? new Date(createdTo.getTime() + 1) : undefined,
  };
}
