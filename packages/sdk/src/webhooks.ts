/**
 * Verifies a webhook as Standard Webhooks signs it: HMAC-SHA256, under the endpoint secret, of
 * `<webhook-id>.<webhook-timestamp>.<raw body>`, sent as `v1,<base64>` in `webhook-signature` (several
 * space-separated while a secret rotates), with the timestamp within a tolerance of the receiver's clock.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PonteWebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './types.js';

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export type VerifyOptions = {
  /** Largest difference, in seconds, between the signed timestamp and now (default 300). */
  toleranceSeconds?: number;
  /** The receiver's clock, for tests (default Date.now). */
  now?: () => number;
};

export const DEFAULT_TOLERANCE_SECONDS = 300;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function secretBytes(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length === 0)
    throw new PonteWebhookVerificationError('The webhook secret is empty or not base64');
  return bytes;
}

function verifySignature(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions,
) {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new PonteWebhookVerificationError(
      'Missing webhook-id, webhook-timestamp or webhook-signature header',
    );
  }
  if (!/^\d+$/.test(timestamp)) throw new PonteWebhookVerificationError('webhook-timestamp is not a number');
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) {
    throw new PonteWebhookVerificationError(
      'webhook-timestamp is outside the tolerance: refused as a possible replay',
    );
  }
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', secretBytes(secret))
    .update(`${id}.${timestamp}.`)
    .update(body)
    .digest();
  for (const entry of signatures.split(' ')) {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) continue;
    const given = Buffer.from(signature, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return body;
  }
  throw new PonteWebhookVerificationError('No signature matches: the body, headers or secret differ');
}

export class Webhooks {
  /**
   * Checks the signature and timestamp of a delivery and returns its event. Pass the body exactly as
   * received (before any JSON parsing), the request headers, and the endpoint's `whsec_...` secret.
   */
  verify(
    rawBody: string | Uint8Array,
    headers: WebhookHeaders,
    secret: string,
    options: VerifyOptions = {},
  ): WebhookEvent {
    const body = verifySignature(rawBody, headers, secret, options);
    try {
      return JSON.parse(body.toString('utf8')) as WebhookEvent;
    } catch {
      throw new PonteWebhookVerificationError('The signed body is not JSON');
    }
  }
}
