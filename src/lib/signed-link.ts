/**
 * Unguessable, expiring tokens for hosted pages: the resource id and an expiry, authenticated with an
 * HMAC under a server key. Nothing per token is stored, so a fresh link can be minted on every read.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const MAC_BYTES = 18;

function mac(key: Buffer, payload: Buffer): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);
}

export function signLinkToken(key: Buffer, id: string, expiresAt: Date): string {
  const payload = Buffer.alloc(20);
  Buffer.from(id.replace(/-/g, ''), 'hex').copy(payload, 0);
  payload.writeUInt32BE(Math.floor(expiresAt.getTime() / 1000), 16);
  return `${payload.toString('base64url')}.${mac(key, payload).toString('base64url')}`;
}

/** The id the token was minted for, or null when it is forged, malformed or expired. */
export function verifyLinkToken(key: Buffer, token: string, now: Date): string | null {
  const [encoded, signature] = token.split('.');
  if (!encoded || !signature || token.split('.').length !== 2) return null;
  const payload = Buffer.from(encoded, 'base64url');
  const given = Buffer.from(signature, 'base64url');
  if (payload.length !== 20 || given.length !== MAC_BYTES) return null;
  // Only the canonical encoding is accepted: one token string per payload.
  if (payload.toString('base64url') !== encoded || given.toString('base64url') !== signature) return null;
  if (!timingSafeEqual(mac(key, payload), given)) return null;
  if (payload.readUInt32BE(16) * 1000 <= now.getTime()) return null;
  const hex = payload.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
