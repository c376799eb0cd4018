/** When to retry and how long to wait: exponential back-off with full jitter, or what Retry-After says. */

export const RETRY_BASE_MS = 500;
export const RETRY_CAP_MS = 8_000;

/** 429 and every 5xx are worth retrying; any other answer is final (a 4xx is the caller's to fix). */
export const retryableStatus = (status: number) => status === 429 || status >= 500;

/** Retry-After as seconds or an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The wait before retry number `attempt` (1 for the first retry). */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}
