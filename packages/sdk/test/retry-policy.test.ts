import { describe, expect, it } from 'vitest';
import { backoffMs, RETRY_BASE_MS, RETRY_CAP_MS, retryAfterMs, retryableStatus } from '../src/retry.ts';
import { environmentOfKey } from '../src/transport.ts';

describe('the retry policy', () => {
  it('retries 429 and 5xx, never another 4xx', () => {
    expect([429, 500, 502, 503, 504].every(retryableStatus)).toBe(true);
    expect([400, 401, 404, 409, 413, 422].some(retryableStatus)).toBe(false);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:05 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(
      5000,
    );
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });

  it('backs off exponentially with full jitter, capped', () => {
    expect(backoffMs(1, () => 1)).toBe(RETRY_BASE_MS);
    expect(backoffMs(2, () => 1)).toBe(RETRY_BASE_MS * 2);
    expect(backoffMs(3, () => 0.5)).toBe(RETRY_BASE_MS * 2);
    expect(backoffMs(20, () => 1)).toBe(RETRY_CAP_MS);
    expect(backoffMs(3, () => 0)).toBe(0);
  });

  it('chooses the environment by the key', () => {
    expect(environmentOfKey('sk_sandbox_abc')).toBe('sandbox');
    expect(environmentOfKey('sk_live_abc')).toBe('production');
    expect(() => environmentOfKey('pk_test_abc')).toThrow(TypeError);
  });
});
