/**
 * What makes two requests "the same" for an idempotency key, and how a stored answer is kept at rest.
 *
 * The fingerprint is a SHA-256 over the method, the path, the query and the body in canonical form
 * (object keys sorted), so a retry that serialises the same JSON in another key order still matches.
 * Multipart uploads are fingerprinted by their content (fields, file names and file digests, as the
 * route reads them), never by the boundary, which a client may draw anew on each retry; a multipart
 * route that does not describe its content is fingerprinted by its media type alone.
 *
 * Stored answers may carry personal data or a secret shown once (a webhook signing secret), so they are
 * encrypted with AES-256-GCM under a key derived from the instance's encryption key.
 */
import { createHash, createHmac } from 'node:crypto';
import { aesGcmDecrypt, aesGcmEncrypt } from '../lib/aes-gcm.ts';

export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (Buffer.isBuffer(value)) return JSON.stringify(value.toString('base64'));
  const entries = Object.keys(value)
    .sort()
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

export type FingerprintInput = {
  method: string;
  path: string;
  query: unknown;
  contentType: string | undefined;
  body: unknown;
  /** The content of a multipart body, as its route reads it. */
  multipartContent?: unknown;
};

export function requestFingerprint(input: FingerprintInput): string {
  const mediaType = (input.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const body = !mediaType.startsWith('multipart/')
    ? canonicalJson(input.body)
    : input.multipartContent === undefined
      ? `multipart:${mediaType}`
      : `multipart:${mediaType}:${canonicalJson(input.multipartContent)}`;
  return createHash('sha256')
    .update(`${input.method}\n${input.path}\n${canonicalJson(input.query ?? {})}\n${body}`)
    .digest('hex');
}

export type AnswerCipher = { seal(plain: string): string; open(sealed: string): string };

export function answerCipher(encryptionKey: Buffer): AnswerCipher {
  const key = createHmac('sha256', encryptionKey).update('idempotent-answers').digest();
  return {
    /** `v1.<iv>.<tag>.<data>`, each part in base64url. */
    seal(plain) {
      const { iv, ciphertext, tag } = aesGcmEncrypt(key, plain);
      return `v1.${iv.toString('base64url')}.${tag.toString('base64url')}.${ciphertext.toString('base64url')}`;
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown sealed answer');
      return aesGcmDecrypt(key, {
        iv: Buffer.from(iv, 'base64url'),
        ciphertext: Buffer.from(data, 'base64url'),
        tag: Buffer.from(tag, 'base64url'),
      });
    },
  };
}
