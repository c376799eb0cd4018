import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from '../../src/lib/sealed.ts';
import { newSigningSecret, signatureHeaders, signingKey } from '../../src/modules/webhooks/secret.ts';

describe('webhook signing secrets', () => {
  it('are Standard Webhooks secrets of 32 random bytes', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });

  it('are stored encrypted, readable only with the key and for the endpoint they belong to', () => {
    const key = randomBytes(32);
    const secret = newSigningSecret();
    const stored = encryptSecret(key, secret, 'endpoint-a');
    expect(stored).not.toContain(secret.slice(6));
    expect(decryptSecret(key, stored, 'endpoint-a')).toBe(secret);
    expect(() => decryptSecret(key, stored, 'endpoint-b')).toThrow();
    expect(() => decryptSecret(randomBytes(32), stored, 'endpoint-a')).toThrow();
    const [format, iv, ciphertext, tag] = stored.split('.');
    const flipped = Buffer.from(ciphertext!, 'base64url');
    flipped[0]! ^= 1;
    expect(() =>
      decryptSecret(key, [format, iv, flipped.toString('base64url'), tag].join('.'), 'endpoint-a'),
    ).toThrow();
  });

  it('read back a secret stored earlier, in the stored format v1.<iv>.<ciphertext>.<tag> (base64url)', () => {
    const key = Buffer.from('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f', 'hex');
    const stored =
      'v1.8kDGqtHAqUsau_YE.LuuEHJtlrPoAhxmCKeLbZXwzByokpJ4Dua1s7i0N7M69gMN9HzI.UQaVUIJOmpX7UIXCsY2kvQ';
    expect(decryptSecret(key, stored, '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b')).toBe(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    );
    const fresh = encryptSecret(key, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'endpoint-a').split('.');
    expect(fresh[0]).toBe('v1');
    expect(fresh.slice(1).map((part) => Buffer.from(part, 'base64url').length)).toEqual([
      12,
      Buffer.byteLength('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'),
      16,
    ]);
  });

  it('sign messages that the standardwebhooks library verifies', () => {
    const secret = newSigningSecret();
    const body = JSON.stringify({ eventId: 'evt', data: { amount: '1500.00' } });
    const headers = signatureHeaders(secret, 'evt', new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
  });

  it('sign with several secrets as space-separated signatures, each verifying with its own secret', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const body = JSON.stringify({ eventId: 'evt', data: {} });
    const headers = signatureHeaders([current, previous], 'evt', new Date(), body);
    const [first, second, ...rest] = headers['webhook-signature'].split(' ');
    expect(rest).toEqual([]);
    expect(new Webhook(current).verify(body, { ...headers, 'webhook-signature': first! })).toEqual(
      JSON.parse(body),
    );
    expect(new Webhook(previous).verify(body, { ...headers, 'webhook-signature': second! })).toEqual(
      JSON.parse(body),
    );
    expect(() => new Webhook(previous).verify(body, { ...headers, 'webhook-signature': first! })).toThrow();
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('sign with a key decoded once (signingKey) exactly as with its secret', () => {
    const secret = newSigningSecret();
    const body = JSON.stringify({ eventId: 'evt', data: { amount: '1500.00' } });
    const at = new Date();
    const headers = signatureHeaders(signingKey(secret), 'evt', at, body);
    expect(headers).toEqual(signatureHeaders(secret, 'evt', at, body));
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });
});
