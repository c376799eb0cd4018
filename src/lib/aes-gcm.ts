/**
 * AES-256-GCM through node:crypto (OpenSSL): a fresh 12-byte IV per message, the 16-byte tag checked on
 * opening, and optional additional data that must be the same on both sides (binding a ciphertext to
 * what it belongs to). Callers choose how the three parts are written down.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export type Sealed = { iv: Buffer; ciphertext: Buffer; tag: Buffer };

export function aesGcmEncrypt(key: Buffer, plaintext: string, additionalData?: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (additionalData !== undefined) cipher.setAAD(Buffer.from(additionalData, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv, ciphertext, tag: cipher.getAuthTag() };
}

/** The plaintext; throws when the key, the additional data or any part differs from the sealing. */
export function aesGcmDecrypt(key: Buffer, sealed: Sealed, additionalData?: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
  if (additionalData !== undefined) decipher.setAAD(Buffer.from(additionalData, 'utf8'));
  decipher.setAuthTag(sealed.tag);
  return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
}
