/**
 * The production PIX rail as Efí documents it, end to end through Ponte: the webhook registration check
 * through a real TLS terminator, a registration Efí refuses made visible, Efí's 400 for unknown ids, a
 * send's returns in Efí's shape, Efí's refusal reason, a key in its DICT form, scopes, pacing. The
 * simulator checks every request against the official SDK's schemas (sdk-node-apis-efi) and the API Pix
 * document; each test cites the page of Efí's documentation that says what it relies on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepEnvironment } from '../../src/modules/pix/sweep.ts';
import { pspPayoutRail } from '../../src/rails/pix/psp-payout.ts';
import type { SendState } from '../../src/rails/pix/rail.ts';
import { registerWebhooks } from '../../src/rails/pix/registry.ts';
import { individualBody } from '../helpers/factories.ts';
import { type Client, client, eventually } from '../helpers/server.ts';
import { balances, settled, unbalanced } from '../off-ramp/support.ts';
import { createOnRamp, type IsolatedServer, setRate, startIsolatedServer } from '../transactions/support.ts';
import { EFI_SCOPES } from './efi-schemas.ts';
import { idOf, pspProduction } from './production.ts';
import type { PspSimulator } from './simulator.ts';
import {
  expectNoViolations,
  PIX_KEY,
  pspEnv,
  startSimulator,
  testCertificates,
  WEBHOOK_URL,
} from './support.ts';
import { startTerminator, type Terminator } from './terminator.ts';

let server: IsolatedServer;
let simulator: PspSimulator;
let terminator: Terminator;
let production: Client;
/** The paths the terminator passed on to Ponte, and what Ponte answered. */
const passed: { path: string; status: number }[] = [];

beforeAll(async () => {
  // the simulator reaches Ponte over real HTTPS: without its certificate the handshake fails
  simulator = await startSimulator();
  terminator = await startTerminator(testCertificates(), new URL(WEBHOOK_URL).pathname, async (request) => {
    const answer = await server.production.inject({
      method: 'POST',
      url: request.path,
      headers: request.contentType ? { 'content-type': request.contentType } : {},
      payload: request.body,
    });
    passed.push({ path: request.path, status: answer.statusCode });
    return { status: answer.statusCode, body: answer.body };
  });
  server = await startIsolatedServer({
    env: pspEnv(simulator, {
      PONTE_PIX_WEBHOOK_URL: terminator.url,
      PONTE_PIX_PAYOUT_STATUS_AFTER_MS: '300',
      PONTE_PIX_RECONCILE_EVERY_MS: '600000',
      PONTE_OFFRAMP_FEE_BPS: '0',
      PONTE_TRANSACTION_MIN_FEE: '0.00',
    }),
  });
  await server.ctx.pix.psp('production')!.registerWebhook();
  production = client(server.production, (await server.newTenant()).productionKey);
  await setRate(server, 'BRL/USDC', '0.2');
  await setRate(server, 'USDC/BRL', '5');
});
afterAll(async () => {
  await server?.close();
  await simulator?.close();
  await terminator?.close();
});
expectNoViolations(() => simulator);

const { settle, fundedCustomer, payout } = pspProduction(() => ({ server, simulator, production }));
const quiet = { info() {}, warn() {} };
const lookUp = async (sendId: string) =>
  (await server.ctx.pix.psp('production')!.lookUpSend(sendId)) as { state: SendState };

describe('webhook registration, checked by Efí before it is stored (dev.efipay.com.br/docs/api-pix/webhooks)', () => {
  it('passes Efí check: the request without a client certificate is refused at the terminator, the one with it answered 200 at the registered address itself', async () => {
    const checksBefore = simulator.webhookChecks.length;
    const attemptsBefore = server.ctx.pix.webhookRegistration('production')!.attempts;
    const registering = registerWebhooks(server.ctx.pix, quiet);
    try {
      await eventually(
        async () => ({ ...server.ctx.pix.webhookRegistration('production')! }),
        (state) => state.attempts > attemptsBefore && state.registered && state.lastError === null,
      );
    } finally {
      registering.stop();
    }
    const check = simulator.webhookChecks[checksBefore]!;
    expect(check).toEqual({ url: terminator.url, withoutCertificate: 0, withCertificate: 200 });
    // the check reached the registered address itself, not `/pix`
    expect(passed).toContainEqual({ path: new URL(terminator.url).pathname, status: 200 });
    expect(simulator.webhooks.get(PIX_KEY)?.url).toBe(terminator.url);
    const ready = await server.operator.inject({ method: 'GET', url: '/readyz' });
    expect(ready.json()).toMatchObject({
      status: 'ready',
      pixWebhook: { production: { status: 'registered' } },
    });
  });

  it('answers 200 at the registered address to any body and content type, and keeps nothing of it', async () => {
    const path = new URL(terminator.url).pathname;
    for (const [type, payload] of [
      ['application/json', '{"evento":"teste_webhook"}'],
      ['application/json', ''],
      ['text/plain', 'ping'],
      ['application/x-www-form-urlencoded', 'a=1'],
    ] as const) {
      const answer = await server.production.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': type },
        payload,
      });
      expect(answer.statusCode, `${type} ${payload}`).toBe(200);
    }
  });
});

describe('Efí behaviours on the money path', () => {
  it('treats Efí 400 pix_nao_encontrado and devolucao_nao_encontrada as unknown (dev.efipay.com.br/docs/api-pix/gestao-de-pix)', async () => {
    const rail = server.ctx.pix.psp('production')!;
    expect(await rail.confirmPayment('E60701190202501011200NotAPix0001')).toEqual({ unknown: true });
    const e2e = await simulator.pay(null, '3.00', PIX_KEY);
    expect(await rail.lookUpRefund(e2e, 'D0000000000000000000000000NotOne')).toEqual({ unknown: true });
  });

  it('sends a refund whose first request was lost again after Efí answers devolucao_nao_encontrada, and completes it once', async () => {
    const customer = (await production.post('/customers', individualBody())).json();
    await server.ctx.db.query("UPDATE verifications SET status = 'APPROVED' WHERE customer_id = $1", [
      customer.id,
    ]);
    // paid another amount than the charge's: the on-ramp FAILS and the BRL is held for refund
    const created = await createOnRamp(production, customer.id, '30.00');
    const e2e = await simulator.pay(idOf(created), '20.00');
    await settle();
    expect((await production.get(`/transactions/${created.id}`)).json().status).toBe('FAILED');
    // the first PUT never reaches the PSP: Ponte looks it up, is told 400 devolucao_nao_encontrada, sends again
    simulator.fail(/^PUT \/v2\/pix\/.*\/devolucao\//, 503);
    expect((await production.post(`/transactions/${created.id}/refund`, {})).statusCode).toBe(200);
    const done = await eventually(
      async () => (await production.get(`/transactions/${created.id}`)).json(),
      (t) => t.refund.status !== 'PENDING',
      20_000,
    );
    expect(done.refund).toMatchObject({ status: 'SUCCESS', amount: '20.00' });
    const lookUps = simulator.calls.filter(
      (c) => c.method === 'GET' && c.path.includes(`/v2/pix/${e2e}/devolucao/`),
    );
    expect(lookUps.map((c) => c.status)).toContain(400);
    expect(simulator.received.get(e2e)!.devolucoes.filter((r) => r.status === 'DEVOLVIDO')).toHaveLength(1);
    expect(await unbalanced(server)).toEqual([]);
  });

  it('books both returns of a 4.00 send from Efí shape {rtrId, valor, horario} once each: RETURNED', async () => {
    const { customer, before, transaction, sendId } = await payout('0.8');
    await settle();
    const done = await eventually(
      async () => (await production.get(`/transactions/${transaction.id}`)).json(),
      (t) => t.status === 'RETURNED',
    );
    expect(done.status).toBe('RETURNED');
    expect(simulator.sends.get(sendId)!.devolucoes.map((d) => Object.keys(d).sort())).toEqual([
      ['horario', 'rtrId', 'valor'],
      ['horario', 'rtrId', 'valor'],
    ]);
    // looked up and swept again: nothing is booked twice
    await server.ctx.pix.handlers()!.sent('production', (await lookUp(sendId)).state);
    await sweepEnvironment(server.ctx, 'production');
    expect((await balances(production, customer.id)).BRL).toBe((Number(before.BRL ?? '0') + 4).toFixed(2));
    expect(await unbalanced(server)).toEqual([]);
  });

  it('takes the reason of a PIX Efí did not make from gnExtras.erro.motivo into failureReason', async () => {
    const { transaction } = await payout('3');
    const done = await settled(production, transaction.id);
    expect(done.status).toBe('FAILED');
    expect(done.failureReason).toMatch(/homologação: valor entre 10,01 e 20,00/);
  });

  it('sends each key in its DICT form: CPF and CNPJ bare, phone in E.164, EVP lower case (dev.efipay.com.br/docs/api-pix/envio-pagamento-pix)', async () => {
    const rail = pspPayoutRail(server.ctx.pix.psp('production')!);
    const cases = [
      ['CPF', '529.982.247-25', '52998224725'],
      ['CNPJ', '11.222.333/0001-81', '11222333000181'],
      ['PHONE', '+5511987654321', '+5511987654321'],
      ['EMAIL', 'ana@example.com', 'ana@example.com'],
      ['EVP', '123E4567-E89B-42D3-A456-426614174000', '123e4567-e89b-42d3-a456-426614174000'],
    ] as const;
    for (const [keyType, keyValue, dict] of cases) {
      const key = `K${Date.now()}${keyType}`.slice(0, 35);
      const answer = await rail.submit(
        {
          endToEndId: key,
          kind: 'OFF_RAMP',
          amount: 100n,
          destination: { keyType, keyValue, name: 'Ana Souza', taxId: '529.982.247-25' },
          refundOf: null,
          source: { currency: 'BRL', amount: 100n, scale: 2 },
        },
        { key, kind: 'OFF_RAMP', refundOf: null, attempts: 1 },
      );
      expect(answer, keyType).toHaveProperty('accepted', true);
      expect(simulator.sends.get(key)?.favorecido.chave, keyType).toBe(dict);
    }
    await settle();
  });

  it('keeps a return it cannot read for operators, counted and logged, and still settles the send', async () => {
    const { transaction, sendId } = await payout('1');
    await settle();
    await settled(production, transaction.id);
    const send = simulator.sends.get(sendId)!;
    // a return with no rtrId: not Efí's shape, so it cannot be booked
    (send.devolucoes as unknown[]).push({ valor: '0.50', horario: new Date().toISOString() });
    const before = await server.operator.inject({ method: 'GET', url: '/metrics' });
    const count = (body: string) =>
      Number(/ponte_pix_unreadable_items_total\{environment="production"\} (\d+)/.exec(body)?.[1] ?? 0);
    const state = await server.ctx.pix.psp('production')!.lookUpSend(sendId);
    expect(state).toMatchObject({ state: { status: 'REALIZADO', returns: [] } });
    // the simulator's own answer broke Efí's schema on purpose: that violation is this test's input
    expect(simulator.violations.splice(0)).toEqual([expect.stringMatching(/devolucoes\.0\.rtrId/)]);
    await server.ctx.pix.settled();
    const rows = await server.ctx.db.query<{ reason: string; source: string }>(
      "SELECT reason, source FROM pix_notification_rejects WHERE item->>'idEnvio' = $1",
      [sendId],
    );
    expect(rows).toEqual([{ reason: expect.stringMatching(/without its rtrId/), source: 'psp-answer' }]);
    const after = await server.operator.inject({ method: 'GET', url: '/metrics' });
    expect(count(after.body)).toBe(count(before.body) + 1);
    expect((await production.get(`/transactions/${transaction.id}`)).json().status).toBe('SUCCESS');
    send.devolucoes.pop();
  });
});

describe('scopes (each endpoint page: "Requer autorização para o escopo")', () => {
  it('keeps an accepted payout waiting, never FAILED, while gn.pix.send.read is not granted, and settles it once it is', async () => {
    const funded = await fundedCustomer();
    simulator.grant(EFI_SCOPES.filter((scope) => scope !== 'gn.pix.send.read'));
    simulator.expireTokens();
    simulator.setAutoSettle(false);
    simulator.faults.drop = true;
    try {
      const { transaction } = await payout('1', funded);
      // the look-ups are refused (403): the payout waits
      await eventually(
        async () => simulator.calls.filter((c) => c.path.includes('/enviados/id-envio/') && c.status === 403),
        (refused) => refused.length > 0,
      );
      await simulator.settlePending(); // made at the PSP; its notification lost
      expect((await production.get(`/transactions/${transaction.id}`)).json().status).toBe(
        'TRANSFERRING_FIAT',
      );
      // on-call sees it waiting: counted, and the oldest pending send's age above 0
      const waiting = (await server.operator.inject({ method: 'GET', url: '/metrics' })).body;
      expect(waiting).toMatch(/^ponte_pix_pending_sends\{environment="production"\} [1-9]/m);
      const age = /^ponte_pix_oldest_pending_send_age_seconds\{environment="production"\} (\S+)$/m.exec(
        waiting,
      );
      expect(Number(age?.[1])).toBeGreaterThan(0);
      simulator.grant(EFI_SCOPES);
      simulator.expireTokens();
      // the next sweep lists the sends (the scope now granted) and settles it; look-ups back off meanwhile.
      // Made due now; a sweep the workers have under way holds the lease, so it is asked again until one runs.
      await eventually(
        async () => {
          await server.ctx.db.query(
            "UPDATE pix_sweeps SET next_at = now(), lease_until = NULL WHERE environment = 'production'",
          );
          return sweepEnvironment(server.ctx, 'production');
        },
        (swept) => swept?.complete === true,
      );
      const done = await eventually(
        async () => (await production.get(`/transactions/${transaction.id}`)).json(),
        (t) => t.status !== 'TRANSFERRING_FIAT',
        30_000,
      );
      expect(done.status).toBe('SUCCESS');
    } finally {
      simulator.faults.drop = false;
      simulator.setAutoSettle(true);
    }
  });
});
