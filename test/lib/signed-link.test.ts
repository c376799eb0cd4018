import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/core/ids.ts';
import { signLinkToken, verifyLinkToken } from '../../src/lib/signed-link.ts';

const key = randomBytes(32);
const now = new Date('2026-11-21T12:00:00.000Z');
const later = new Date('2026-11-28T12:00:00.000Z');

describe('hosted-page link tokens', () => {
  it('carry the id they were minted for until they expire', () => {
    const id = newId();
    const token = signLinkToken(key, id, later);
    expect(verifyLinkToken(key, token, now)).toBe(id);
    expect(verifyLinkToken(key, token, later)).toBeNull();
  });

  it('refuse a token signed with another key or altered', () => {
    const token = signLinkToken(key, newId(), later);
    expect(verifyLinkToken(randomBytes(32), token, now)).toBeNull();
    const [payload, mac] = token.split('.') as [string, string];
    const flipped = `${payload.slice(0, 5)}${payload[5] === 'A' ? 'B' : 'A'}${payload.slice(6)}.${mac}`;
    expect(verifyLinkToken(key, flipped, now)).toBeNull();
    // the last character also carries padding bits: a non-canonical spelling is refused too
    const last = payload.at(-1)!;
    const sibling = String.fromCharCode(last.charCodeAt(0) ^ 1);
    expect(verifyLinkToken(key, `${payload.slice(0, -1)}${sibling}.${mac}`, now)).toBeNull();
    for (const bad of ['', '.', 'abc', `${payload}.`, `${token}.x`])
      expect(verifyLinkToken(key, bad, now)).toBeNull();
  });
});
