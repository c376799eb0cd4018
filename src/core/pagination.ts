import { AppError } from './errors.ts';
import { CANONICAL_UUID } from './storable.ts';

/**
 * Where a list's answer starts in its order (`createdAt` desc, then `id` desc): the item it follows. A
 * walk by cursor is stable under inserts: a new item sorts before every cursor already handed out, so
 * the walk neither repeats nor skips an item that existed when it began.
 */
export type Cursor = { createdAt: Date; id: string };

/**
 * A page asked for by number (`page`, or its synonym `cursor`), or by keyset (`startingAfter`): then
 * `after` is the item the page follows, or null for the first page of a walk.
 */
export type PageRequest = { page: number; limit: number; offset: number; after?: Cursor | null | undefined };
export type PageResult<T> = {
  data: T[];
  pagination: { size: number; total: number; hasNextPage: boolean; page: number; nextCursor: string | null };
};

/** Whether a page is read by keyset; its reader then reads `limit + 1` items, to know whether more follow. */
export const byKeyset = (request: PageRequest): boolean => request.after !== undefined;

/**
 * The opaque form of a cursor: base64url of `<createdAt ISO 8601>/<id>`. Instants are kept to the
 * millisecond, which is exactly what every list's `created_at` holds (written from the clock's Date).
 */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.createdAt.toISOString()}/${cursor.id}`).toString('base64url');
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The cursor an opaque string names; a string no answer gave is refused (400 naming the parameter). */
export function decodeCursor(text: string): Cursor {
  const [at, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('/');
  const createdAt = at && INSTANT.test(at) ? new Date(at) : undefined;
  if (!createdAt || Number.isNaN(createdAt.getTime()) || !id || !CANONICAL_UUID.test(id) || rest.length > 0) {
    throw new AppError('invalid_request', 'startingAfter is not a cursor this API gave', {
      errors: [{ pointer: '/query/startingAfter', message: 'must be a nextCursor from a previous answer' }],
    });
  }
  return { createdAt, id: id.toLowerCase() };
}

/**
 * `page` and its synonym `cursor`, or `startingAfter` (empty to begin a walk). Giving `page` and `cursor`
 * with different values, or a page number with `startingAfter`, is ambiguous and refused.
 */
export function pageRequest(query: {
  page?: number;
  cursor?: string | number;
  limit?: number;
  startingAfter?: string;
}): PageRequest {
  const cursor = query.cursor === undefined ? undefined : Number(query.cursor);
  if (query.page !== undefined && cursor !== undefined && query.page !== cursor) {
    throw new AppError('invalid_request', 'page and cursor name different pages', {
      errors: [{ pointer: '/query/cursor', message: 'must equal page when both are given' }],
    });
  }
  const limit = query.limit ?? 20;
  if (query.startingAfter !== undefined) {
    if (query.page !== undefined || cursor !== undefined) {
      throw new AppError(
        'invalid_request',
        'startingAfter walks by keyset; a page number cannot go with it',
        {
          errors: [
            {
              pointer: query.page !== undefined ? '/query/page' : '/query/cursor',
              message: 'must not be given with startingAfter',
            },
          ],
        },
      );
    }
    const after = query.startingAfter === '' ? null : decodeCursor(query.startingAfter);
    return { page: 1, limit, offset: 0, after };
  }
  const page = query.page ?? cursor ?? 1;
  return { page, limit, offset: (page - 1) * limit };
}

/** Where an answered item stands in its list's order. */
export const cursorOf = (item: { createdAt: string; id: string }): Cursor => ({
  createdAt: new Date(item.createdAt),
  id: item.id,
});

/**
 * The answer of a page. By number: `nextCursor` is the next page number. By keyset: `data` holds up to
 * `limit + 1` items, the last telling only that more follow, and `nextCursor` names the last item shown.
 */
export function pageResult<T>(
  request: PageRequest,
  data: T[],
  total: number,
  keyOf: (item: T) => Cursor = cursorOf as unknown as (item: T) => Cursor,
): PageResult<T> {
  if (byKeyset(request)) {
    const hasNextPage = data.length > request.limit;
    const shown = hasNextPage ? data.slice(0, request.limit) : data;
    return {
      data: shown,
      pagination: {
        size: request.limit,
        total,
        hasNextPage,
        page: request.page,
        nextCursor: hasNextPage ? encodeCursor(keyOf(shown[shown.length - 1]!)) : null,
      },
    };
  }
  const hasNextPage = request.offset + data.length < total;
  return {
    data,
    pagination: {
      size: request.limit,
      total,
      hasNextPage,
      page: request.page,
      nextCursor: hasNextPage ? String(request.page + 1) : null,
    },
  };
}

/** A page of a list as its reader reads it: how many rows, and where they start (an offset, or after a cursor). */
export type ListWindow = { limit: number; offset: number; after?: Cursor | undefined };

/** The window a page request reads: by keyset one row more than it shows, to know whether more follow. */
export const listWindow = (request: PageRequest): ListWindow => ({
  limit: byKeyset(request) ? request.limit + 1 : request.limit,
  offset: request.offset,
  after: request.after ?? undefined,
});
