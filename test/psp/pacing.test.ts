/**
 * Sends paced per key: Efí advises sending one PIX after the previous one's result
 * (dev.efipay.com.br/docs/api-pix/envio-pagamento-pix), and a 429 holds every new send back.
 */
import { describe, expect, it } from 'vitest';
import { PspConfigError, parsePspConfig } from '../../src/rails/pix/psp/config.ts';
import type { PspAnswer } from '../../src/rails/pix/psp/http-client.ts';
import { createSendPacer } from '../../src/rails/pix/psp/pacing.ts';
import { testCertificates } from './support.ts';

const config = (overrides: NodeJS.ProcessEnv) =>
  parsePspConfig(
    {
      PONTE_PIX_PSP: 'efi',
      PONTE_PIX_PSP_URL: 'https://psp.example',
      PONTE_PIX_CLIENT_ID: 'id',
      PONTE_PIX_CLIENT_SECRET: 'secret',
      PONTE_PIX_CERT: testCertificates().clientPemPath,
      PONTE_PIX_KEY: 'f3a9c1d2-4b5e-4f60-8a7b-9c0d1e2f3a4b',
      PONTE_PIX_WEBHOOK_URL: 'https://ponte.example/rails/pix/webhook',
      ...overrides,
    },
    'PONTE_PIX_',
  );

const answer = (status: number, retryAfterMs?: number): PspAnswer =>
  retryAfterMs === undefined ? { status, body: null } : { status, body: null, retryAfterMs };

describe('the send pacer', () => {
  it('takes its limit from PONTE_PIX_SEND_CONCURRENCY, 4 when unset, and refuses one below 1', () => {
    expect(config({})!.sendConcurrency).toBe(4);
    expect(config({ PONTE_PIX_SEND_CONCURRENCY: '1' })!.sendConcurrency).toBe(1);
    expect(() => config({ PONTE_PIX_SEND_CONCURRENCY: '0' })).toThrow(PspConfigError);
    expect(() => config({ PONTE_PIX_SEND_CONCURRENCY: 'many' })).toThrow(/PONTE_PIX_SEND_CONCURRENCY/);
  });

  it('keeps at most PONTE_PIX_SEND_CONCURRENCY sends under way at once', async () => {
    const pacer = createSendPacer(2);
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const call = () =>
      pacer.run(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return answer(201);
      });
    const all = Promise.all([call(), call(), call(), call(), call()]);
    for (let done = 0; done < 5; done++) {
      while (releases.length === 0) await new Promise((resolve) => setImmediate(resolve));
      releases.shift()!();
    }
    await all;
    expect(most).toBe(2);
  });

  it('holds new sends back after a 429, for the PSP Retry-After, then doubling from 1 s while 429s go on', async () => {
    let now = 1_000_000;
    const pacer = createSendPacer(4, () => now);
    await pacer.run(async () => answer(429, 5_000));
    expect(pacer.heldForMs()).toBe(5_000);
    now += 5_000;
    await pacer.run(async () => answer(429));
    expect(pacer.heldForMs()).toBe(2_000); // the second 429 in a row, no Retry-After: 1 s doubled
    now += 2_000;
    await pacer.run(async () => answer(201));
    expect(pacer.heldForMs()).toBe(0);
    await pacer.run(async () => answer(429));
    expect(pacer.heldForMs()).toBe(1_000); // forgotten after an answer that was not a 429
  });

  it('waits out the hold before the next send goes to the PSP', async () => {
    const pacer = createSendPacer(4);
    await pacer.run(async () => answer(429, 150));
    const started = Date.now();
    let sentAt = 0;
    await pacer.run(async () => {
      sentAt = Date.now();
      return answer(201);
    });
    expect(sentAt - started).toBeGreaterThanOrEqual(140);
  });
});
