/**
 * Production on-ramps over a PSP (the simulator): charges registered with `PUT /cob/{txid}`, and
 * notifications taken as hints, each payment confirmed with `GET /pix/{e2eid}` before anything is booked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOURLY_CAP, recordUnreadableItem } from '../../src/rails/pix/repo.ts';
import { individualBody } from '../helpers/factories.ts';
import { type Client, client, eventually } from '../helpers/server.ts';
import type { PspSimulator } from '../psp/simulator.ts';
import {
  expectNoViolations,
  PIX_KEY,
  pspEnv,
  startSimulator,
  terminatedDelivery,
  WEBHOOK_URL,
} from '../psp/support.ts';
import {
  createOnRamp,
  type IsolatedServer,
  onRamp,
  setRate,
  startIsolatedServer,
} from '../transactions/support.ts';

let server: IsolatedServer;
let simulator: PspSimulator;
let production: Client;
const WEBHOOK_PATH = `${new URL(WEBHOOK_URL).pathname}/pix`;
const deliveries: number[] = [];
let clockOffset = 0;

beforeAll(async () => {
  simulator = await startSimulator({
    deliver: async (url, body, options) => {
      const status = await terminatedDelivery(() => server?.production)(url, body, options);
      if (options.clientCertificate) deliveries.push(status);
      return status;
    },
  });
  server = await startIsolatedServer({
    env: pspEnv(simulator, { PONTE_PIX_PSP_TIMEOUT_MS: '1500' }),
    clock: () => new Date(Date.now() + clockOffset),
  });
  await server.ctx.pix.psp('production')!.registerWebhook();
  production = client(server.production, (await server.newTenant()).productionKey);
  await setRate(server, 'BRL/USDC', '0.2');
});
afterAll(async () => {
  await server.close();
  await simulator.close();
});
expectNoViolations(() => simulator);

/** A production customer: approved by the operator, since production has no simulated outcomes. */
async function approvedProductionCustomer() {
  const customer = (await production.post('/customers', individualBody())).json();
  await server.ctx.db.query("UPDATE verifications SET status = 'APPROVED' WHERE customer_id = $1", [
    customer.id,
  ]);
  return customer;
}

async function charge(amount: string) {
  const customer = await approvedProductionCustomer();
  return createOnRamp(production, customer.id, amount);
}

const txidOf = (transaction: { id: string }) => transaction.id.replace(/-/g, '');
const status = async (id: string) => (await production.get(`/transactions/${id}`)).json();
async function pay(transaction: { id: string }, valor?: string) {
  const e2e = await simulator.pay(txidOf(transaction), valor);
  await simulator.idle();
  await server.ctx.pix.settled();
  return e2e;
}
const counts = async (id: string) =>
  (
    await server.ctx.db.query<{ events: bigint; journals: bigint; deposits: bigint }>(
      `SELECT (SELECT count(*) FROM events WHERE resource_id = $1) AS events,
              (SELECT count(*) FROM ledger_journals WHERE transaction_id = $1) AS journals,
              (SELECT count(*) FROM pix_deposits WHERE transaction_id = $1) AS deposits`,
      [id],
    )
  )[0]!;
async function post(body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const response = await server.production.inject({
    method: 'POST',
    url: WEBHOOK_PATH,
    payload: typeof body === 'string' ? body : JSON.stringify(body),
    headers,
  });
  await server.ctx.pix.settled();
  return response;
}

describe('production on-ramp charges at the PSP', () => {
  it('registers an immediate charge with a txid derived from the transaction and shows the PSP pixCopiaECola', async () => {
    const customer = await approvedProductionCustomer();
    const transaction = await createOnRamp(production, customer.id, '100.00');
    const registered = simulator.charges.get(txidOf(transaction));
    expect(txidOf(transaction)).toMatch(/^[a-f0-9]{32}$/);
    expect(registered).toMatchObject({
      valor: '100.00',
      chave: PIX_KEY,
      expiracao: 1800,
      devedor: { nome: 'Ana Souza', cpf: customer.taxId.replace(/\D/g, '') },
      status: 'ATIVA',
    });
    expect(transaction.depositInstructions.brCode).toBe(
      (simulator.charges.get(txidOf(transaction)) && transaction.depositInstructions.brCode) as string,
    );
    expect(transaction.depositInstructions.brCode).toContain('pix.simulator.invalid/qr/v2/');
  });

  it('answers 503 and creates and counts nothing when the PSP does not register the charge, and a retry under the same Idempotency-Key then succeeds', async () => {
    const customer = await approvedProductionCustomer();
    const before = await server.ctx.db.query('SELECT 1 FROM transactions WHERE customer_id = $1', [
      customer.id,
    ]);
    simulator.fail(/^PUT \/v2\/cob\//, 503);
    const headers = { 'idempotency-key': `onramp-${customer.id}` };
    const refused = await production.post(
      '/transactions/on-ramp',
      { customerId: customer.id, currency: 'BRL', amount: '25.00' },
      headers,
    );
    expect(refused.statusCode).toBe(503);
    expect(refused.json().code).toBe('service_unavailable');
    expect(
      await server.ctx.db.query('SELECT 1 FROM transactions WHERE customer_id = $1', [customer.id]),
    ).toEqual(before);
    const usage = await server.ctx.db
      .query<{ n: bigint }>(
        'SELECT count(*) AS n FROM limit_usage WHERE customer_id = $1 AND brl_cents <> 0',
        [customer.id],
      )
      .catch(() => [{ n: 0n }]);
    expect(usage[0]!.n).toBe(0n);
    const retried = await production.post(
      '/transactions/on-ramp',
      { customerId: customer.id, currency: 'BRL', amount: '25.00' },
      headers,
    );
    expect(retried.statusCode).toBe(201);
  });

  it('answers 503 when the PSP fails the charge (5xx)', async () => {
    const customer = await approvedProductionCustomer();
    simulator.fail(/^PUT \/v2\/cob\//, 500);
    const response = await onRamp(production, customer.id, '25.00');
    expect(response.statusCode).toBe(503);
  });

  it('answers 503 when the PSP is too slow, at its deadline', async () => {
    const customer = await approvedProductionCustomer();
    simulator.faults.delayMs = 2_500;
    try {
      const started = Date.now();
      const response = await onRamp(production, customer.id, '25.00');
      expect(response.statusCode).toBe(503);
      expect(Date.now() - started).toBeLessThan(2_400);
    } finally {
      simulator.faults.delayMs = 0;
    }
  });

  it('holds no database connection, transaction or lock while the PSP registers the charge', async () => {
    const customer = await approvedProductionCustomer();
    let lockedOut: unknown = 'not tried';
    simulator.hooks.beforeAnswer = async (method, path) => {
      if (method !== 'PUT' || !path.startsWith('/v2/cob/')) return;
      lockedOut = await server.ctx.db
        .transaction((tx) =>
          tx.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE NOWAIT', [customer.id]),
        )
        .then(
          () => null,
          (error: Error) => error.message,
        );
    };
    try {
      expect((await onRamp(production, customer.id, '12.00')).statusCode).toBe(201);
    } finally {
      simulator.hooks.beforeAnswer = undefined;
    }
    expect(lockedOut).toBeNull();
  });

  it('withdraws the charge at the PSP when a creation is refused after it was registered', async () => {
    const customer = await approvedProductionCustomer();
    const response = await onRamp(production, customer.id, '99999999.00');
    expect(response.statusCode).toBe(422);
    const registered = [...simulator.charges.values()].find((c) => c.valor === '99999999.00');
    expect(registered).toBeDefined();
    await eventually(
      async () => registered!.status,
      (value) => value === 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
    );
  });
});

describe('PSP notifications (POST {webhook}/pix): hints confirmed with GET /pix/{e2eid}', () => {
  it('confirms a notified payment with the PSP and settles the on-ramp to SUCCESS', async () => {
    const transaction = await charge('100.00');
    const e2e = await pay(transaction);
    const done = await status(transaction.id);
    expect(done.status).toBe('SUCCESS');
    expect(done.receipt).toMatchObject({
      sourceAmount: '100.00',
      fee: '0.50',
      netAmount: '99.50',
      targetAmount: '19.900000',
    });
    expect(simulator.calls.some((c) => c.method === 'GET' && c.path === `/v2/pix/${e2e}`)).toBe(true);
    expect(deliveries.every((code) => code === 200)).toBe(true);
  });

  it('books nothing from a forged notification of a PIX the PSP never received, and answers 200', async () => {
    const transaction = await charge('30.00');
    const forged = {
      endToEndId: 'E60701190202501011200ForgedPix01',
      txid: txidOf(transaction),
      valor: '30.00',
      horario: new Date().toISOString(),
    };
    const response = await post({ pix: [forged] });
    expect(response.statusCode).toBe(200);
    expect((await status(transaction.id)).status).toBe('AWAITING_FUNDS');
    expect(await counts(transaction.id)).toMatchObject({ deposits: 0n });
  });

  it('books what the PSP says, not what a tampered notification says', async () => {
    const transaction = await charge('40.00');
    simulator.faults.drop = true;
    const e2e = await simulator.pay(txidOf(transaction), '40.00');
    simulator.faults.drop = false;
    await post({
      pix: [
        { endToEndId: e2e, txid: txidOf(transaction), valor: '4000.00', horario: new Date().toISOString() },
      ],
    });
    const done = await status(transaction.id);
    expect(done.status).toBe('SUCCESS');
    expect(done.receipt.sourceAmount).toBe('40.00');
  });

  it('applies a notification delivered twice, or replayed later, exactly once', async () => {
    const transaction = await charge('30.00');
    simulator.faults.duplicate = true;
    let e2e: string;
    try {
      e2e = await pay(transaction);
    } finally {
      simulator.faults.duplicate = false;
    }
    const counted = await counts(transaction.id);
    const before = await status(transaction.id);
    await post({ pix: [{ endToEndId: e2e, valor: '30.00', horario: new Date().toISOString() }] });
    expect(await status(transaction.id)).toEqual(before);
    expect(await counts(transaction.id)).toEqual(counted);
    expect(counted.deposits).toBe(1n);
  });

  it('applies concurrent redeliveries exactly once', async () => {
    const transaction = await charge('40.00');
    simulator.faults.drop = true;
    const e2e = await simulator.pay(txidOf(transaction));
    simulator.faults.drop = false;
    const body = { pix: [{ endToEndId: e2e }] };
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(body)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    await server.ctx.pix.settled();
    const deposits = await server.ctx.db.query(
      "SELECT 1 FROM ledger_journals WHERE transaction_id = $1 AND kind = 'DEPOSIT_RECEIVED'",
      [transaction.id],
    );
    expect(deposits).toHaveLength(1);
  });

  it('applies notifications that arrive in the reverse order of the payments', async () => {
    const first = await charge('11.00');
    const second = await charge('12.00');
    simulator.faults.reorder = true;
    try {
      await simulator.pay(txidOf(first));
      await simulator.pay(txidOf(second));
    } finally {
      simulator.faults.reorder = false;
    }
    expect((await status(first.id)).status).toBe('AWAITING_FUNDS');
    await simulator.flush();
    await server.ctx.pix.settled();
    expect((await status(first.id)).status).toBe('SUCCESS');
    expect((await status(second.id)).status).toBe('SUCCESS');
  });

  it('leaves a payment the PSP cannot confirm right now for a later notification, booking nothing meanwhile', async () => {
    const transaction = await charge('13.00');
    simulator.fail(/^GET \/v2\/pix\//, 503);
    const e2e = await pay(transaction);
    expect((await status(transaction.id)).status).toBe('AWAITING_FUNDS');
    await post({ pix: [{ endToEndId: e2e }] });
    expect((await status(transaction.id)).status).toBe('SUCCESS');
  });

  it('FAILS the charge when the amount paid differs from the requested one, the BRL held for refund', async () => {
    const transaction = await charge('50.00');
    await pay(transaction, '49.00');
    const done = await status(transaction.id);
    expect(done.status).toBe('FAILED');
    expect(done.failureReason).toBe(
      'The deposit of 49.00 BRL differs from the requested 50.00 BRL; it is held for refund',
    );
  });

  it('holds a second payment of a charge already paid for refund, leaving the transaction as it was', async () => {
    const transaction = await charge('60.00');
    await pay(transaction);
    const paid = await status(transaction.id);
    await pay(transaction);
    expect(await status(transaction.id)).toEqual(paid);
    const balances = (await production.get(`/customers/${transaction.customerId}/balances`)).json();
    expect(balances.balances).toContainEqual({ currency: 'BRL', amount: '60.00' });
  });

  it('records a confirmed payment no charge has the txid of as unmatched', async () => {
    const e2e = await simulator.pay('UnknownTxid000000000000000000', '10.00', PIX_KEY);
    await simulator.idle();
    await server.ctx.pix.settled();
    const rows = await server.ctx.db.query('SELECT outcome FROM pix_deposits WHERE end_to_end_id = $1', [
      e2e,
    ]);
    expect(rows).toEqual([{ outcome: 'UNMATCHED' }]);
  });

  it('refuses a body that is not a notification with 400, and never answers 5xx', async () => {
    for (const body of ['{not json', '{}', '{"pix":"nope"}', '[1,2]']) {
      const response = await post(body);
      expect(response.statusCode).toBe(400);
    }
    expect((await post('x', { 'content-type': 'text/plain' })).statusCode).toBe(415);
  });

  it('keeps unreadable items for operations and still confirms the readable ones of the batch', async () => {
    const transaction = await charge('30.00');
    simulator.faults.drop = true;
    const e2e = await simulator.pay(txidOf(transaction));
    simulator.faults.drop = false;
    const response = await post({ pix: [{ endToEndId: 'short' }, 42, null, { endToEndId: e2e }] });
    expect(response.statusCode).toBe(200);
    expect((await status(transaction.id)).status).toBe('SUCCESS');
    const rejects = await server.ctx.db.query(
      `SELECT reason FROM pix_notification_rejects WHERE item->>'endToEndId' = 'short'`,
    );
    expect(rejects.length).toBeGreaterThanOrEqual(1);
  });

  it('keeps at most 10 unreadable items of one notification, each as a sample of at most 2 KB', async () => {
    const before = await server.ctx.db.query<{ n: bigint }>(
      'SELECT count(*)::bigint AS n FROM pix_notification_rejects',
    );
    const huge = { endToEndId: 'huge', filler: 'x'.repeat(200_000) };
    const response = await post({
      pix: [huge, ...Array.from({ length: 29 }, (_, i) => ({ endToEndId: `bad-${i}` }))],
    });
    expect(response.statusCode).toBe(200);
    const after = await server.ctx.db.query<{ n: bigint }>(
      'SELECT count(*)::bigint AS n FROM pix_notification_rejects',
    );
    expect(after[0]!.n - before[0]!.n).toBe(10n);
    const [kept] = await server.ctx.db.query<{ size: number; item: { sample?: string; bytes?: number } }>(
      'SELECT octet_length(item::text) AS size, item FROM pix_notification_rejects WHERE item->>\'sample\' LIKE \'{"endToEndId":"huge"%\'',
    );
    expect(kept!.size).toBeLessThan(2_300);
    expect(kept!.item.bytes).toBeGreaterThan(200_000);
  });

  it('keeps at most 1,000 unreadable items an hour per environment; past that they are only counted', async () => {
    const at = new Date('2030-01-01T10:00:00Z');
    await server.ctx.db.query(
      `INSERT INTO pix_notification_rejects (id, item, reason, received_at, environment, source)
       SELECT gen_random_uuid(), '{}'::jsonb, 'filler', $1::timestamptz - interval '1 minute', 'sandbox', 'notification'
         FROM generate_series(1, $2::int)`,
      [at, HOURLY_CAP],
    );
    expect(
      await recordUnreadableItem(server.ctx.db, { endToEndId: 'over' }, 'unreadable', at, 'sandbox'),
    ).toBe(false);
    const later = new Date(at.getTime() + 61 * 60_000);
    expect(
      await recordUnreadableItem(server.ctx.db, { endToEndId: 'later' }, 'unreadable', later, 'sandbox'),
    ).toBe(true);
  });

  it('is not served on the sandbox listener, whose rail is simulated', async () => {
    const response = await server.sandbox.inject({ method: 'POST', url: WEBHOOK_PATH, payload: { pix: [] } });
    expect(response.statusCode).toBe(404);
  });
});

describe('charges that end without a payment', () => {
  it('withdraws the charge at the PSP (PATCH /cob/{txid}) when the on-ramp EXPIRES', async () => {
    const transaction = await charge('21.00');
    clockOffset = 31 * 60_000;
    try {
      await eventually(
        async () => (await status(transaction.id)).status,
        (value) => value === 'EXPIRED',
        10_000,
      );
      // the withdrawal goes out after the expiry commits: on a loaded machine, seconds later
      await eventually(
        async () => simulator.charges.get(txidOf(transaction))!.status,
        (value) => value === 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
        20_000,
      );
    } finally {
      clockOffset = 0;
    }
  }, 60_000);
});
