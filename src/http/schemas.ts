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

/**
 * What an id accepts, exactly: the canonical 8-4-4-4-12 hexadecimal form (`format: uuid` alone would also
 * admit `urn:uuid:` and other spellings the API refuses).
 */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const Uuid = (description?: string) =>
  Type.String({ format: 'uuid', pattern: UUID_PATTERN, ...(description ? { description } : {}) });

/**
 * `x-expected` (an OpenAPI extension): what a field must be, in words, shown in place of the validator's
 * own message when its format, pattern or length is not met ("must be an ISO 3166-1 alpha-3 country
 * code, such as BRA" rather than "must NOT have fewer than 3 characters").
 */
export const expected = (words: string) => ({ 'x-expected': words });

export const DateTime = (description?: string) =>
  Type.String({
    format: 'date-time',
    ...(description ? { description } : {}),
    ...expected('an instant in ISO 8601 with its offset, such as 2026-11-26T14:05:00Z'),
  });

export const CalendarDate = (description?: string) =>
  Type.String({
    format: 'date',
    ...(description ? { description } : {}),
    examples: ['2019-05-14'],
    ...expected('a date written YYYY-MM-DD, such as 2019-05-14'),
  });

/** An amount as accepted on input: up to 13 digits and 2 decimals, strictly positive (checked again in code). */
export const AmountInput = (description?: string) =>
  Type.String({ pattern: AMOUNT_PATTERN, examples: ['1500.00'], ...(description ? { description } : {}) });

/** An amount as answered: always exactly two decimals. */
export const Amount = (description?: string) =>
  Type.String({ examples: ['1500.00'], ...(description ? { description } : {}) });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** How long a metadata key may be: 1 to 40 characters, as a partner's own field names run. */
export const METADATA_KEY_MAX_LENGTH = 40;

/**
 * The keys a partner's metadata may use. A record's key schema is not carried into JSON Schema by
 * `Type.Record`, so the bound is stated as `propertyNames` on the object itself.
 */
export const metadataKeys = () => ({ propertyNames: { minLength: 1, maxLength: METADATA_KEY_MAX_LENGTH } });

/** Partner metadata on input: up to 20 keys of 1-40 characters, each a string of up to 500 characters (depth 1). */
export const MetadataInput = () =>
  Type.Record(Type.String(), Type.String({ maxLength: 500 }), {
    maxProperties: 20,
    ...metadataKeys(),
    description:
      'Up to 20 keys of your own (1 to 40 characters each), each a string of up to 500 characters, answered back as given',
  });

/** Partner metadata as answered: what was given, `{}` when nothing was. */
export const Metadata = () =>
  Type.Record(Type.String(), Type.String(), {
    description: 'Your own keys and values, as given at creation',
  });

export const Country = () =>
  Type.String({
    minLength: 3,
    maxLength: 3,
    description: 'ISO 3166-1 alpha-3 country code',
    examples: ['BRA'],
    ...expected('an ISO 3166-1 alpha-3 country code (three letters), such as BRA'),
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
    customerId: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'customer_exists: the id of the customer that has this taxId',
      }),
    ),
    limit: Type.Optional(
      StringEnum(['single', 'daily', 'monthly'], {
        description: 'limit_exceeded: the limit the amount exceeds',
      }),
    ),
    max: Type.Optional(Type.String({ description: 'limit_exceeded: the limit, in BRL' })),
    used: Type.Optional(
      Type.String({
        description: "limit_exceeded: the period's usage so far, in BRL (daily and monthly limits)",
      }),
    ),
    remaining: Type.Optional(Type.String({ description: 'limit_exceeded: what the limit leaves, in BRL' })),
    currency: Type.Optional(Type.String({ description: 'insufficient_funds: the currency of the balance' })),
    balance: Type.Optional(Type.String({ description: "insufficient_funds: the customer's balance in it" })),
    available: Type.Optional(
      Type.String({
        description: 'insufficient_funds: what the wallets to draw from hold (stablecoin sends)',
      }),
    ),
    holdReason: Type.Optional(
      Type.String({ description: 'compliance_hold: why the subject is held (NAME_MATCH, ADDRESS_MATCH)' }),
    ),
    subjectType: Type.Optional(
      Type.String({ description: 'compliance_hold: what is held (CUSTOMER, BANK_ACCOUNT_HOLDER, ...)' }),
    ),
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

/** The keyset cursor of a partner's list (`pageRequest` reads it; an empty value begins a walk). */
export const STARTING_AFTER_PATTERN = '^[A-Za-z0-9_-]{0,200}$';

/**
 * The query of a partner's list: the seed's page selector (`page`, or `cursor`), or a keyset walk
 * (`startingAfter`), stable while items are created.
 */
export const ListQuery = {
  ...PageQuery,
  startingAfter: Type.Optional(
    Type.String({
      pattern: STARTING_AFTER_PATTERN,
      description:
        'Keyset pagination, stable while items are created: empty to begin a walk, then the `nextCursor` of ' +
        'the previous answer, passed back as is. The answer holds the items after that one (newest first) ' +
        'and its `nextCursor` names where the next page starts. Not with `page` or `cursor`.',
      examples: [''],
    }),
  ),
};

export const Pagination = Type.Object({
  size: Type.Integer({ description: 'Page size in force' }),
  total: Type.Integer({ description: 'Total number of items' }),
  hasNextPage: Type.Boolean(),
  page: Type.Integer({ description: 'The page number asked for (1 for an answer to `startingAfter`)' }),
  nextCursor: Nullable(
    Type.String({
      description:
        'Where the next page starts, or null on the last page: the next page number (a request by `page` ' +
        'or `cursor`), or the opaque keyset cursor to pass as `startingAfter` (a request by `startingAfter`)',
    }),
  ),
});

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), pagination: Pagination });

export const bearerSecurity = [{ bearerAuth: [] as string[] }];
