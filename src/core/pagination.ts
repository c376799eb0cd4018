import { AppError } from './errors.ts';

export type PageRequest = { page: number; limit: number; offset: number };
export type PageResult<T> = {
  data: T[];
  pagination: { size: number; total: number; hasNextPage: boolean; page: number; nextCursor: string | null };
};

/** `page` and its synonym `cursor`; giving both with different values is ambiguous and refused. */
export function pageRequest(query: { page?: number; cursor?: string | number; limit?: number }): PageRequest {
  const cursor = query.cursor === undefined ? undefined : Number(query.cursor);
  if (query.page !== undefined && cursor !== undefined && query.page !== cursor) {
    throw new AppError('invalid_request', 'page and cursor name different pages', {
      errors: [{ pointer: '/query/cursor', message: 'must equal page when both are given' }],
    });
  }
  const page = query.page ?? cursor ?? 1;
  const limit = query.limit ?? 20;
  return { page, limit, offset: (page - 1) * limit };
}

export function pageResult<T>(request: PageRequest, data: T[], total: number): PageResult<T> {
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
