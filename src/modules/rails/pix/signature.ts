import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../../lib/secrets.ts';

/** Header carrying `sha256=<hex HMAC-SHA256 of the raw body>` with the provider's shared secret. */
export const SIGNATURE_HEADER = 'x-pix-signature';

export function signPixNotification(secret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Whether the header signs exactly these bytes with the secret, compared in constant time. */
export function verifyPixNotification(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  return constantTimeEqual(header.trim().toLowerCase(), signPixNotification(secret, rawBody));
}
