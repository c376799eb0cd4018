/**
 * A webhook registration Efí refuses (`400 webhook_invalido`: its check of the address failed,
 * dev.efipay.com.br/docs/api-pix/webhooks) is visible — in the log, `/metrics`, `GET /readyz` and the
 * console — and tried again with back-off; payouts meanwhile wait rather than fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPixOperationsService } from '../../src/modules/pix/operations.ts';
import { registerWebhooks } from '../../src/rails/pix/registry.ts';
import { load, view } from '../../src/web/pages/console/pix.ts';
import { eventually } from '../helpers/server.ts';
import { type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import type { PspSimulator } from './simulator.ts';
import { expectNoViolations, pspEnv, startSimulator } from './support.ts';

let simulator: PspSimulator;
const servers: IsolatedServer[] = [];
beforeAll(async () => {
  simulator = await startSimulator();
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await simulator?.close();
});
expectNoViolations(() => simulator);

describe('a webhook registration Efí refuses', () => {
  it('shows a registration Efí refuses (webhook_invalido) in /readyz, /metrics and the log, and tries again', async () => {
    // an address nothing listens on: Efí's check cannot reach it
    const unreachable = await startIsolatedServer({
      workers: false,
      env: pspEnv(simulator, { PONTE_PIX_WEBHOOK_URL: 'https://localhost:9/rails/pix/webhook' }),
    });
    servers.push(unreachable);
    const logged: { reason?: string }[] = [];
    const registering = registerWebhooks(unreachable.ctx.pix, {
      info() {},
      warn: (entry: { reason?: string }) => logged.push(entry),
    });
    try {
      const state = await eventually(
        async () => unreachable.ctx.pix.webhookRegistration('production'),
        (s) => (s?.attempts ?? 0) >= 1,
      );
      expect(state).toMatchObject({
        registered: false,
        lastError: expect.stringMatching(/webhook_invalido/),
      });
      expect(logged[0]?.reason).toMatch(/webhook_invalido/);
      const ready = await unreachable.operator.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json().pixWebhook.production).toMatchObject({
        status: 'not_registered',
        lastError: expect.stringMatching(/webhook_invalido/),
      });
      const publicReady = await unreachable.production.inject({ method: 'GET', url: '/readyz' });
      expect(publicReady.json()).toEqual({ status: 'ready', pixWebhook: { production: 'not_registered' } });
      const metrics = await unreachable.operator.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(/ponte_pix_webhook_registered\{environment="production"\} 0/);
      // the console's PIX rail page says so, with the PSP's words
      const page = view(await load(createPixOperationsService(unreachable.ctx), unreachable.ctx.pix)).safe;
      expect(page).toMatch(/NOT REGISTERED/);
      expect(page).toMatch(/webhook_invalido/);
    } finally {
      registering.stop();
    }
  });
});
