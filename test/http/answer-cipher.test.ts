/** Stored idempotent answers are sealed with AES-256-GCM; answers sealed earlier still open. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { answerCipher } from '../../src/http/idempotency-fingerprint.ts';

const KEY = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');
const ANSWER = '{"statusCode":201,"body":{"secret":"whsec_x"}}';

describe('sealed idempotent answers', () => {
  it('open an answer sealed earlier, in the stored format v1.<iv>.<tag>.<data> (base64url)', () => {
    const sealed =
      'v1.M0fnlqYd-SkTwzCw.GSz7GJv7n7Rkg29yD-favw.PXaikk7W-xRMRQ66NTxdILmQUDJS5o8hBg7CS_nUoUiX0zIru5sae0fcheJipA';
    expect(answerCipher(KEY).open(sealed)).toBe(ANSWER);
  });

  it('seal in that format, each time anew, readable only under the same key and untouched', () => {
    const cipher = answerCipher(KEY);
    const sealed = cipher.seal(ANSWER);
    const [version, iv, tag, data] = sealed.split('.');
    expect(version).toBe('v1');
    expect([iv, tag, data].map((part) => Buffer.from(part!, 'base64url').length)).toEqual([
      12,
      16,
      Buffer.byteLength(ANSWER),
    ]);
    expect(cipher.seal(ANSWER)).not.toBe(sealed);
    expect(cipher.open(sealed)).toBe(ANSWER);
    expect(() => answerCipher(randomBytes(32)).open(sealed)).toThrow();
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => cipher.open([version, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => cipher.open('v2.a.b.c')).toThrow('unknown sealed answer');
  });

  it('seal an empty answer too', () => {
    const cipher = answerCipher(KEY);
    expect(cipher.open(cipher.seal(''))).toBe('');
  });
});
