/**
 * Answers are serialised from the schemas with nullable scalars read as lists of types
 * (`serialisedAs`): the text must be the one the schema as written gives, for every value it allows.
 */

import fc from 'fast-check';
import fastJson from 'fast-json-stringify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { DateTime, Nullable, StringEnum } from '../../src/http/schemas.ts';
import { serialisedAs } from '../../src/http/serialization.ts';

const Item = Type.Object({
  at: Nullable(DateTime()),
  count: Nullable(Type.Integer()),
  amount: Type.Optional(Nullable(Type.String({ pattern: '^\\d+\\.\\d{2}$' }))),
  done: Nullable(Type.Boolean()),
  // not a scalar: left as written
  detail: Nullable(Type.Object({ note: Type.String() })),
});
const Page = Type.Object({ data: Type.Array(Item), next: Nullable(Type.String()) });

const asWritten = fastJson(JSON.parse(JSON.stringify(Page)));
const asRead = fastJson(serialisedAs(JSON.parse(JSON.stringify(Page))) as object);

// instants the date-time format allows (four-digit years)
const instant = fc.date({
  min: new Date('1970-01-01T00:00:00Z'),
  max: new Date('9999-12-31T23:59:59Z'),
  noInvalidDate: true,
});
const item = fc.record(
  {
    at: fc.oneof(
      fc.constant(null),
      instant,
      instant.map((d) => d.toISOString()),
    ),
    count: fc.oneof(fc.constant(null), fc.integer()),
    amount: fc.oneof(
      fc.constant(null),
      fc.nat().map((n) => `${n}.00`),
    ),
    done: fc.oneof(fc.constant(null), fc.boolean()),
    detail: fc.oneof(fc.constant(null), fc.record({ note: fc.string() })),
  },
  { requiredKeys: ['at', 'count', 'done', 'detail'] },
);

describe('answers serialised', () => {
  it('write nullable scalars as the schema as written does, whatever their value', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 4 }),
        fc.oneof(fc.constant(null), fc.string()),
        (data, next) => {
          const page = { data, next };
          expect(asRead(page)).toBe(asWritten(page));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('read only nullable scalars as lists of types; the schema given is left as it is', () => {
    const schema = JSON.parse(JSON.stringify(Item));
    const before = JSON.stringify(schema);
    const read = serialisedAs(schema) as { properties: Record<string, Record<string, unknown>> };
    expect(JSON.stringify(schema)).toBe(before);
    expect(read.properties.at).toMatchObject({ type: ['string', 'null'], format: 'date-time' });
    expect(read.properties.count).toMatchObject({ type: ['integer', 'null'] });
    expect(read.properties.detail).toHaveProperty('anyOf');
  });

  it('write a null enumeration value inside a union as the schema as written does (an on-ramp without a chain)', () => {
    const Request = Type.Object({
      request: Type.Union([
        Type.Object({
          amount: Type.String(),
          blockchain: Nullable(StringEnum(['POLYGON', 'BASE'] as const)),
        }),
        Type.Object({ sourceAmount: Type.String() }),
      ]),
    });
    const written = fastJson(JSON.parse(JSON.stringify(Request)));
    const read = fastJson(serialisedAs(JSON.parse(JSON.stringify(Request))) as object);
    for (const blockchain of [null, 'POLYGON']) {
      const body = { request: { amount: '100.00', blockchain } };
      expect(read(body)).toBe(written(body));
      expect(JSON.parse(read(body))).toEqual(body);
    }
  });
});
