/**
 * Secrets kept encrypted with AES-256-GCM under an instance key, each bound to a label (an endpoint id,
 * a wallet seed's environment, a user id) as associated data, so a ciphertext copied onto another
 * record does not decrypt. Stored as `v1.{iv}.{ciphertext}.{tag}`, each part in base64url.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const FORMAT = 'v1';

export function encryptSecret(key: Buffer, secret: string, endpointId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(endpointId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const parts = [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url'));
  return [FORMAT, ...parts].join('.');
}

export function decryptSecret(key: Buffer, stored: string, endpointId: string): string {
  const [format, iv, ciphertext, tag] = stored.split('.');
  if (format !== FORMAT || !iv || !ciphertext || !tag) throw new Error('unknown signing secret format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(endpointId, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
    'utf8',
  );
}
