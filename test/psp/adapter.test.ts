import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePspConfig } from '../../src/rails/pix/psp/config.ts';
import { createPspRail } from '../../src/rails/pix/psp/rail.ts';
import { RailUnavailable } from '../../src/rails/pix/rail.ts';
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

let simulator: PspSimulator;
let terminator: Terminator;
/** What reached the webhook address through the terminator. */
const reached: string[] = [];
beforeAll(async () => {
  simulator = await startSimulator();
  terminator = await startTerminator(testCertificates(), new URL(WEBHOOK_URL).pathname, async (request) => {
    reached.push(request.path);
    return { status: 200, body: '{}' };
  });
});
afterAll(async () => {
  await simulator.close();
  await terminator.close();
});
expectNoViolations(() => simulator);

const rail = (overrides: NodeJS.ProcessEnv = {}) => {
  const config = parsePspConfig(
    pspEnv(simulator, { PONTE_PIX_WEBHOOK_URL: terminator.url, ...overrides }),
    'PONTE_PIX_',
  )!;
  const observed = { calls: [] as string[], refreshes: 0 };
  const adapter = createPspRail(config, {
    call: (route, outcome) => observed.calls.push(`${route} ${outcome}`),
    tokenRefreshed: () => observed.refreshes++,
  });
  return { adapter, observed };
};

let n = 0;
const txid = () => `Ponte${Date.now()}${String(++n).padStart(8, '0')}abcdef`.slice(0, 32);
const charge = (id = txid()) => ({
  txid: id,
  amount: 1050n,
  expiresInSeconds: 1800,
  payer: { name: 'Ana Souza', cpf: '52998224725' },
});

describe('the PSP adapter: OAuth2 over mutual TLS', () => {
  it('authenticates with the PKCS#12 certificate and its passphrase and registers a charge the API Pix document accepts', async () => {
    const { adapter } = rail();
    const id = txid();
    const registered = await adapter.registerCharge(charge(id));
    expect(registered.brCode).toMatch(/^000201/);
    expect(simulator.charges.get(id)).toMatchObject({
      valor: '10.50',
      chave: PIX_KEY,
      expiracao: 1800,
      devedor: { nome: 'Ana Souza', cpf: '52998224725' },
    });
    adapter.close();
  });

  it('authenticates with a PEM file holding certificate and key', async () => {
    const { adapter } = rail({
      PONTE_PIX_CERT: testCertificates().clientPemPath,
      PONTE_PIX_CERT_PASSPHRASE: '',
    });
    await expect(adapter.registerCharge(charge())).resolves.toHaveProperty('brCode');
    adapter.close();
  });

  it('does not talk to a PSP whose server certificate the configured CAs do not vouch for', async () => {
    const { adapter } = rail({ PONTE_PIX_PSP_CA: testCertificates().strangerPemPath });
    await expect(adapter.registerCharge(charge())).rejects.toBeInstanceOf(RailUnavailable);
    adapter.close();
  });

  it('is refused by the PSP with a client certificate the PSP did not issue', async () => {
    const { adapter } = rail({
      PONTE_PIX_CERT: testCertificates().strangerPemPath,
      PONTE_PIX_CERT_PASSPHRASE: '',
    });
    await expect(adapter.registerCharge(charge())).rejects.toBeInstanceOf(RailUnavailable);
    adapter.close();
  });

  it('is refused with wrong client credentials, and says so', async () => {
    const { adapter } = rail({ PONTE_PIX_CLIENT_SECRET: 'wrong' });
    await expect(adapter.registerCharge(charge())).rejects.toThrow(/refused the client credentials/);
    adapter.close();
  });

  it('keeps one token for many calls and fetches a new one when the PSP answers 401', async () => {
    const { adapter, observed } = rail();
    const before = simulator.tokensIssued;
    for (let i = 0; i < 3; i++) await adapter.registerCharge(charge());
    expect(simulator.tokensIssued - before).toBe(1);
    simulator.expireTokens();
    await adapter.registerCharge(charge());
    expect(simulator.tokensIssued - before).toBe(2);
    expect(observed.refreshes).toBe(2);
    expect(observed.calls.filter((c) => c === 'PUT /cob/{txid} 4xx')).toHaveLength(1);
    adapter.close();
  });

  it('fetches a token again shortly before the PSP says it expires', async () => {
    const short = await startSimulator({ tokenSeconds: 1 });
    const config = parsePspConfig(pspEnv(short), 'PONTE_PIX_')!;
    let clock = 0;
    const { createPspHttpClient } = await import('../../src/rails/pix/psp/http-client.ts');
    const http = createPspHttpClient(config, {}, () => clock);
    await http.call({
      method: 'GET',
      path: '/v2/pix/E12345678202501011200abcdefghijk',
      route: 'GET /pix/{e2eid}',
    });
    clock = 400; // within the first half of its second
    await http.call({
      method: 'GET',
      path: '/v2/pix/E12345678202501011200abcdefghijk',
      route: 'GET /pix/{e2eid}',
    });
    expect(short.tokensIssued).toBe(1);
    clock = 600;
    await http.call({
      method: 'GET',
      path: '/v2/pix/E12345678202501011200abcdefghijk',
      route: 'GET /pix/{e2eid}',
    });
    expect(short.tokensIssued).toBe(2);
    http.close();
    await short.close();
  });

  it('gives up on a slow answer at its deadline', async () => {
    const { adapter, observed } = rail({ PONTE_PIX_PSP_TIMEOUT_MS: '200' });
    await adapter.confirmPayment('E12345678202501011200abcdefghijk'); // token fetched
    simulator.faults.delayMs = 1_000;
    try {
      const started = Date.now();
      await expect(adapter.registerCharge(charge())).rejects.toThrow(/no answer within 200 ms/);
      expect(Date.now() - started).toBeLessThan(900);
      expect(observed.calls).toContain('PUT /cob/{txid} timeout');
    } finally {
      simulator.faults.delayMs = 0;
      adapter.close();
    }
  });

  it('answers a PSP 5xx as "try again", never as a result', async () => {
    const { adapter } = rail();
    simulator.fail(/^GET \/v2\/pix\//, 503);
    expect(await adapter.confirmPayment('E12345678202501011200abcdefghijk')).toHaveProperty('retry');
    expect(await adapter.confirmPayment('E12345678202501011200abcdefghijk')).toEqual({ unknown: true });
    adapter.close();
  });

  it('registers the webhook for the key, the same way however often it starts', async () => {
    const { adapter } = rail();
    await adapter.registerWebhook();
    await adapter.registerWebhook();
    expect(simulator.webhooks.get(PIX_KEY)?.url).toBe(terminator.url);
    expect(await adapter.webhook()).toEqual({ webhookUrl: terminator.url });
    adapter.close();
  });
});

describe('sends paced per key (dev.efipay.com.br/docs/api-pix/envio-pagamento-pix: one after the previous result)', () => {
  it('keeps PONTE_PIX_SEND_CONCURRENCY sends under way at the PSP, no more', async () => {
    const { adapter } = rail({ PONTE_PIX_SEND_CONCURRENCY: '1' });
    await adapter.registerWebhook();
    let inFlight = 0;
    let most = 0;
    simulator.hooks.beforeAnswer = async (method, path) => {
      if (method !== 'PUT' || !path.startsWith('/v3/gn/pix/')) return;
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight--;
    };
    try {
      const stamp = Date.now();
      const answers = await Promise.all(
        [1, 2, 3].map((n) =>
          adapter.send({
            sendId: `P${stamp}${n}`,
            amount: 100n,
            payee: { key: 'ana@example.com', cpf: '52998224725', name: 'Ana' },
            info: 'payout',
          }),
        ),
      );
      expect(answers.every((a) => 'state' in a)).toBe(true);
      expect(most).toBe(1);
    } finally {
      simulator.hooks.beforeAnswer = undefined;
      await simulator.idle();
      adapter.close();
    }
  });
});

describe('the PSP simulator', () => {
  it('records a request the API Pix document refuses as a violation', async () => {
    const { adapter } = rail();
    await expect(adapter.registerCharge({ ...charge(), txid: 'short' })).rejects.toBeInstanceOf(
      RailUnavailable,
    );
    const found = simulator.violations.splice(0);
    expect(found.some((v) => v.includes('txid'))).toBe(true);
    adapter.close();
  });

  it('follows Efí homologation: up to 10.00 confirmed, 10.01–20.00 rejected later, above 20.00 refused at once', async () => {
    const { adapter } = rail();
    await adapter.registerWebhook();
    const order = (sendId: string, amount: bigint) => ({
      sendId,
      amount,
      payee: { key: 'ana@example.com', cpf: '52998224725', name: 'Ana' },
      info: 'payout',
    });
    const ok = await adapter.send(order(`S${Date.now()}ok`, 1000n));
    const no = await adapter.send(order(`S${Date.now()}no`, 1001n));
    const refused = await adapter.send(order(`S${Date.now()}big`, 2001n));
    expect(ok).toMatchObject({ state: { status: 'EM_PROCESSAMENTO' } });
    expect(no).toMatchObject({ state: { status: 'EM_PROCESSAMENTO' } });
    expect(refused).toHaveProperty('refused');
    await simulator.idle();
    expect(
      await adapter.lookUpSend(`S${(ok as { state: { sendId: string } }).state.sendId.slice(1)}`),
    ).toMatchObject({ state: { status: 'REALIZADO' } });
    expect(await adapter.lookUpSend((no as { state: { sendId: string } }).state.sendId)).toMatchObject({
      state: { status: 'NAO_REALIZADO' },
    });
    const back = await adapter.send(order(`S${Date.now()}back`, 400n));
    await simulator.idle();
    const returned = await adapter.lookUpSend((back as { state: { sendId: string } }).state.sendId);
    expect(
      (returned as { state: { returns: { amount: bigint }[] } }).state.returns.map((r) => r.amount),
    ).toEqual([200n, 200n]);
    adapter.close();
  });
});
