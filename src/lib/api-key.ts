/**
 * API key format: `sk_sandbox_` or `sk_live_`, 32 random base62 characters, then a 6-character checksum
 * of everything before it. A mistyped key fails the checksum and is refused without a database read; the
 * fixed prefixes make leaked keys easy to scan for. Only the SHA-256 hash and a short display prefix are stored.
 */
import type { Environment } from './environment.ts';
import { base62Digest, randomBase62, sha256Hex } from './secrets.ts';

const PREFIX: Record<Environment, string> = { sandbox: 'sk_sandbox_', production: 'sk_live_' };
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY = /^sk_(sandbox|live)_([0-9A-Za-z]{32,})$/;

export type ParsedApiKey = { environment: Environment; hash: string };

export function generateApiKey(environment: Environment): { key: string; hash: string; prefix: string } {
  const head = PREFIX[environment] + randomBase62(BODY_LENGTH);
  const key = head + base62Digest(head, CHECKSUM_LENGTH);
  return { key, hash: sha256Hex(key), prefix: displayPrefix(key) };
}

/** The part of a key that may be shown again (dashboards, logs of key management). */
export function displayPrefix(key: string): string {
  const start = key.startsWith(PREFIX.sandbox) ? PREFIX.sandbox.length : PREFIX.production.length;
  return key.slice(0, start + 4);
}

/**
 * The key's environment and hash when it has a key's shape, before its checksum is checked: a caller that
 * already knows the hash (a cached lookup of an issued key) needs no checksum; any other must call
 * `checksumMatches` before reading the database.
 */
export function readApiKey(key: string): ParsedApiKey | null {
  const match = KEY.exec(key);
  if (!match || match[2]!.length < BODY_LENGTH + CHECKSUM_LENGTH) return null;
  return { environment: match[1] === 'live' ? 'production' : 'sandbox', hash: sha256Hex(key) };
}

/** Whether the key's last characters are the checksum of the rest (false for a mistyped key). */
export function checksumMatches(key: string): boolean {
  const head = key.slice(0, key.length - CHECKSUM_LENGTH);
  return base62Digest(head, CHECKSUM_LENGTH) === key.slice(-CHECKSUM_LENGTH);
}

/** Returns the key's environment and hash, or null when the key is malformed or its checksum is wrong. */
export function parseApiKey(key: string): ParsedApiKey | null {
  const parsed = readApiKey(key);
  return parsed && checksumMatches(key) ? parsed : null;
}

/** Operator tokens: `op_` and 40 random base62 characters; stored hashed like API keys. */
export function generateOperatorToken(): { token: string; hash: string } {
  const token = `op_${randomBase62(40)}`;
  return { token, hash: sha256Hex(token) };
}
