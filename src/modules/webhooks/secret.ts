/**
 * Endpoint signing secrets (Standard Webhooks format: `whsec_` + base64 of 32 random bytes). The secret is
 * shown to the partner once; Ponte keeps it encrypted with AES-256-GCM under the instance encryption key
 * (lib/sealed.ts), bound to its endpoint id, so only the signer can read it back and a ciphertext copied
 * onto another endpoint does not decrypt.
 */
import { createHmac, randomBytes } from 'node:crypto';

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const PREFIX = 'whsec_';

/** The HMAC key a Standard Webhooks secret stands for: the bytes its base64 part encodes. */
export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/**
 * One `v1` signature of a message: HMAC-SHA256 of `{id}.{timestamp}.{body}` under the secret's key, in
 * base64, as Standard Webhooks defines it (computed by OpenSSL through node:crypto).
 */
function sign(key: Buffer, messageId: string, timestamp: string, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The three Standard Webhooks headers for one attempt of one message, from the endpoint's secrets or
 * their keys (`signingKey`). With several secrets (the overlap after a rotation), `webhook-signature`
 * carries one signature per secret, space-separated, as the scheme allows: a receiver holding either
 * secret verifies the message.
 */
export function signatureHeaders(
  secrets: string | Buffer | readonly (string | Buffer)[],
  messageId: string,
  at: Date,
  body: string,
) {
  const all = typeof secrets === 'string' || Buffer.isBuffer(secrets) ? [secrets] : secrets;
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return {
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': all
      .map((secret) =>
        sign(typeof secret === 'string' ? signingKey(secret) : secret, messageId, timestamp, body),
      )
      .join(' '),
  };
}
