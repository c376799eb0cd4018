/**
 * Secrets kept encrypted with AES-256-GCM (lib/aes-gcm.ts) under an instance key, each bound to a label
 * (an endpoint id, a wallet seed's environment, a user id) as associated data, so a ciphertext copied onto
 * another record does not decrypt. Stored as `v1.{iv}.{ciphertext}.{tag}`, each part in base64url.
 */
import { aesGcmDecrypt, aesGcmEncrypt } from './aes-gcm.ts';

const FORMAT = 'v1';

export function encryptSecret(key: Buffer, secret: string, label: string): string {
  const { iv, ciphertext, tag } = aesGcmEncrypt(key, secret, label);
  return [FORMAT, ...[iv, ciphertext, tag].map((part) => part.toString('base64url'))].join('.');
}

export function decryptSecret(key: Buffer, stored: string, label: string): string {
  const [format, iv, ciphertext, tag] = stored.split('.');
  if (format !== FORMAT || !iv || !ciphertext || !tag) throw new Error('unknown signing secret format');
  const bytes = (part: string) => Buffer.from(part, 'base64url');
  return aesGcmDecrypt(key, { iv: bytes(iv), ciphertext: bytes(ciphertext), tag: bytes(tag) }, label);
}
