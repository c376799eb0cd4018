/** Ids: time-ordered v7 UUIDs, in order even within one millisecond, and the bound retention prunes by. */
import { describe, expect, it } from 'vitest';
import { firstIdAt, newId } from '../../src/core/ids.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newId', () => {
  it('mints distinct v7 UUIDs that sort in the order they were minted', () => {
    const ids = Array.from({ length: 5_000 }, () => newId());
    for (const id of ids) expect(id).toMatch(V7);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});

describe('firstIdAt', () => {
  it('sorts below every id minted at or after the moment and above every id minted before it', () => {
    const before = newId();
    const moment = new Date(Date.now() + 2);
    while (Date.now() < moment.getTime()) {
      // the next milliseconds, so that `before` was minted strictly before the moment
    }
    const after = newId();
    const bound = firstIdAt(moment);
    expect(bound).toMatch(V7);
    expect(before < bound).toBe(true);
    expect(bound <= after).toBe(true);
  });
});
