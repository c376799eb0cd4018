/** Schemas shared by every route: ids, amounts, timestamps, problems, pages. */
import { type TSchema, Type } from 'typebox';
import { ERRORS, type ErrorCode } from '../core/errors.ts';
import { AMOUNT_PATTERN } from '../core/money.ts';
import { MAX_PAGE } from '../core/storable.ts';

/** A string restricted to a closed set of values (one `enum` keyword: one clear error). */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const Uuid = (description?: string) =>
  Type.String({ format: 'uuid', ...(description ? { description } : {}) });

export const DateTime = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });

export const CalendarDate = (description?: string) =>
  Type.String({ format: 'date', ...(description ? { description } : {}), examples: ['2019-05-14'] });

/** An amount as accepted on input: up to 13 digits and 2 decimals, strictly positive (checked again in code). */
export const AmountInput = (description?: string) =>
  Type.String({ pattern: AMOUNT_PATTERN, examples: ['1500.00'], ...(description ? { description } : {}) });

/** An amount as answered: always exactly two decimals. */
export const Amount = (description?: string) =>
  Type.String({ examples: ['1500.00'], ...(description ? { description } : {}) });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Country = () =>
  Type.String({
    minLength: 3,
    maxLength: 3,
    description: 'ISO 3166-1 alpha-3 country code',
    examples: ['BRA'],
  });

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: StringEnum(Object.keys(ERRORS) as ErrorCode[], {
      description: 'Machine-readable error code; one of a closed set',
    }),
    requestId: Type.String({ description: 'The request id, also sent as the X-Request-Id header' }),
    errors: Type.Optional(
      Type.Array(
        Type.Object({ pointer: Type.String(), message: Type.String() }, { additionalProperties: false }),
      ),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details', additionalProperties: true },
);

const problemRef = Type.Ref('Problem');

/** Response map entries for the given error statuses, all rendered as problem+json. */
export function problems(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const status of statuses) out[status] = problemRef;
  return out;
}

export const IdParams = Type.Object({ id: Uuid() }, { additionalProperties: false });

/** A page cursor as `nextCursor` gives it: a page number from 1 to MAX_PAGE, as a string. */
export const CURSOR_PATTERN = `^(?:[1-9][0-9]{0,5}|${MAX_PAGE})$`;

export const PageQuery = {
  page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE, description: 'Page number to fetch (1 is the newest)' }),
  ),
  cursor: Type.Optional(
    Type.String({
      pattern: CURSOR_PATTERN,
      description: 'Synonym of page: the `nextCursor` of the previous answer, passed back as is',
      examples: ['2'],
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'Page size, 1 to 50' }),
  ),
};

export const Pagination = Type.Object({
  size: Type.Integer({ description: 'Page size in force' }),
  total: Type.Integer({ description: 'Total number of items' }),
  hasNextPage: Type.Boolean(),
  page: Type.Integer(),
  nextCursor: Nullable(Type.String({ description: 'Next page number, or null on the last page' })),
});

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), pagination: Pagination });

export const bearerSecurity = [{ bearerAuth: [] as string[] }];
