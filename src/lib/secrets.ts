import { createHash, randomFillSync, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Bytes from the operating system's CSPRNG, drawn 4 KiB at a time and each handed out once: a request id
 * per request no longer costs a call into the random source of its own.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const byte = pool[poolOffset]!;
  pool[poolOffset++] = 0;
  return byte;
}

/** Uniformly random base62 string (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** Encodes the first bytes of a digest as a fixed-length base62 string. */
export function base62Digest(input: string, length: number): string {
  const digest = createHash('sha256').update(input).digest();
  let n = digest.readBigUInt64BE(0);
  let out = '';
  for (let i = 0; i < length; i++) {
    out += BASE62[Number(n % 62n)];
    n /= 62n;
  }
  return out;
}

export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(sha256Hex(a), 'hex');
  const right = Buffer.from(sha256Hex(b), 'hex');
  return timingSafeEqual(left, right);
}
