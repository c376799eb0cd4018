import { describe, expect, it } from 'vitest';
import { displayPrefix, generateApiKey, generateOperatorToken, parseApiKey } from '../../src/lib/api-key.ts';
import { sha256Hex } from '../../src/lib/secrets.ts';

describe('API key format', () => {
  it('is sk_sandbox_ or sk_live_, 32 random base62 characters and a 6-character checksum', () => {
    const sandbox = generateApiKey('sandbox');
    const live = generateApiKey('production');
    expect(sandbox.key).toMatch(/^sk_sandbox_[0-9A-Za-z]{38}$/);
    expect(live.key).toMatch(/^sk_live_[0-9A-Za-z]{38}$/);
    expect(generateApiKey('sandbox').key).not.toBe(sandbox.key);
  });

  it('stores only the SHA-256 hash and a short display prefix', () => {
    const { key, hash, prefix } = generateApiKey('production');
    expect(hash).toBe(sha256Hex(key));
    expect(prefix).toBe(key.slice(0, 'sk_live_'.length + 4));
    expect(displayPrefix(key)).toBe(prefix);
  });

  it('parses its own keys with their environment', () => {
    const { key, hash } = generateApiKey('sandbox');
    expect(parseApiKey(key)).toEqual({ environment: 'sandbox', hash });
    expect(parseApiKey(generateApiKey('production').key)?.environment).toBe('production');
  });

  it('refuses a mistyped key by its checksum, without any lookup', () => {
    const { key } = generateApiKey('sandbox');
    for (const index of [11, 20, key.length - 1]) {
      const char = key[index] === 'a' ? 'b' : 'a';
      expect(parseApiKey(key.slice(0, index) + char + key.slice(index + 1))).toBeNull();
    }
  });

  it('refuses malformed keys', () => {
    for (const bad of [
      '',
      'sk_sandbox_',
      'sk_test_abc',
      'pk_live_x',
      `sk_live_${'a'.repeat(20)}`,
      'sk_live_!!!',
    ]) {
      expect(parseApiKey(bad)).toBeNull();
    }
  });

  it('operator tokens are op_ and 40 base62 characters, stored hashed', () => {
    const { token, hash } = generateOperatorToken();
    expect(token).toMatch(/^op_[0-9A-Za-z]{40}$/);
    expect(hash).toBe(sha256Hex(token));
  });
});
