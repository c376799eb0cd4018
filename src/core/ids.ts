import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/**
 * Random bytes for ids, drawn from the operating system's CSPRNG 4 KiB at a time and each handed out
 * once: the library draws 16 bytes per id with a call of its own, a measurable cost on every request.
 */
const pool = new Uint8Array(4096);
let poolOffset = pool.length;
/** The same monotonic state the library keeps: ids minted within one millisecond still sort in order. */
let lastMs = Number.NEGATIVE_INFINITY;
let sequence = 0;

/** Time-ordered UUID (v7): sorts by creation time, indexes well. */
export function newId(): string {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const random = pool.subarray(poolOffset, poolOffset + 16);
  poolOffset += 16;
  const now = Date.now();
  if (now > lastMs) {
    sequence = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
    lastMs = now;
  } else {
    sequence = (sequence + 1) | 0;
    if (sequence === 0) lastMs++;
  }
  return v7({ random, msecs: lastMs, seq: sequence });
}

/** The smallest v7 id of a moment: every id minted at or after it sorts at or above this one. */
export function firstIdAt(at: Date): string {
  const hex = at.getTime().toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}
