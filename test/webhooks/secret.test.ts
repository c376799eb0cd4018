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
