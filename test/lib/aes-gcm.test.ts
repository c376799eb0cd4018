import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aesGcmDecrypt, aesGcmEncrypt } from '../../src/lib/aes-gcm.ts';

const hex = (text: string) => Buffer.from(text, 'hex');

describe('AES-256-GCM', () => {
  it('opens the standard test vectors (GCM specification, test cases 13 and 14)', () => {
    const key = Buffer.alloc(32);
    const iv = Buffer.alloc(12);
    expect(
      aesGcmDecrypt(key, { iv, ciphertext: Buffer.alloc(0), tag: hex('530f8afbc74536b9a963b4f1c4cb738b') }),
    ).toBe('');
    expect(
      aesGcmDecrypt(key, {
        iv,
        ciphertext: hex('cea7403d4d606b6e074ec5d3baf39d18'),
        tag: hex('d0d1c8a799996bf0265b98b5d48ab919'),
      }),
    ).toBe('\0'.repeat(16));
  });

  it('seals with a fresh 12-byte IV and a 16-byte tag, and opens what it sealed', () => {
    const key = randomBytes(32);
    const first = aesGcmEncrypt(key, 'São Paulo ✓');
    const second = aesGcmEncrypt(key, 'São Paulo ✓');
    expect(first.iv).toHaveLength(12);
    expect(first.tag).toHaveLength(16);
    expect(first.ciphertext).toHaveLength(Buffer.byteLength('São Paulo ✓'));
    expect(first.iv.equals(second.iv)).toBe(false);
    expect(aesGcmDecrypt(key, first)).toBe('São Paulo ✓');
    expect(aesGcmDecrypt(key, second)).toBe('São Paulo ✓');
  });

  it('refuses another key, other additional data, and any changed part', () => {
    const key = randomBytes(32);
    const sealed = aesGcmEncrypt(key, 'secret', 'endpoint-a');
    expect(aesGcmDecrypt(key, sealed, 'endpoint-a')).toBe('secret');
    expect(() => aesGcmDecrypt(key, sealed, 'endpoint-b')).toThrow();
    expect(() => aesGcmDecrypt(key, sealed)).toThrow();
    expect(() => aesGcmDecrypt(randomBytes(32), sealed, 'endpoint-a')).toThrow();
    for (const part of ['iv', 'ciphertext', 'tag'] as const) {
      const changed = Buffer.from(sealed[part]);
      changed[0]! ^= 1;
      expect(() => aesGcmDecrypt(key, { ...sealed, [part]: changed }, 'endpoint-a')).toThrow();
    }
  });
});
