import { parsePix } from 'pix-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEmvFields } from '../../src/lib/pix-brcode.ts';
import { signPixNotification } from '../../src/modules/rails/pix/signature.ts';
import { approvedCustomer, individualBody } from '../helpers/factories.ts';
import { type Client, client } from '../helpers/server.ts';
import { createOnRamp, type IsolatedServer, setRate, startIsolatedServer } from './support.ts';

const SECRET = 'provider-shared-secret-for-tests';
const PIX_KEY = 'f3a9c1d2-4b5e-4f60-8a7b-9c0d1e2f3a4b';

let server: IsolatedServer;
let production: Client;

beforeAll(async () => {
  server = await startIsolatedServer({ env: { PONTE_PIX_PROVIDER_SECRET: SECRET, PONTE_PIX_KEY: PIX_KEY } });
  production = client(server.production, (await server.newTenant()).productionKey);
  await setRate(server, 'BRL/USDC', '0.2');
});
afterAll(async () => {
  await server.close();
});

let sequence = 0;
const endToEndId = () => `E12345678202501011200${String(++sequence).padStart(11, '0')}`;
const txidOf = (brCode: string) => readEmvFields(readEmvFields(brCode).get('62')!).get('05')!;

function notify(body: unknown, options: { signature?: string | null; app?: 'production' | 'sandbox' } = {}) {
  const raw = JSON.stringify(body);
  const signature = options.signature === undefined ? signPixNotification(SECRET, raw) : options.signature;
  return server.app(options.app ?? 'production').inject({
    method: 'POST',
    url: '/rails/pix/notifications',
    payload: raw,
    headers: { 'content-type': 'application/json', ...(signature ? { 'x-pix-signature': signature } : {}) },
  });
}

const payment = (txid: string, valor: string, id = endToEndId()) => ({
  endToEndId: id,
  txid,
  valor,
  horario: new Date().toISOString(),
  infoPagador: 'pagamento',
});

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

describe('POST /rails/pix/notifications (production PIX provider)', () => {
  it('issues production charges to the configured platform PIX key', async () => {
    const transaction = await charge('100.00');
    expect(parsePix(transaction.depositInstructions.brCode)).toMatchObject({ pixKey: PIX_KEY });
  });

  it('applies a signed payment to its charge by txid and settles it to SUCCESS', async () => {
    const transaction = await charge('100.00');
    const item = payment(txidOf(transaction.depositInstructions.brCode), '100.00');
    const response = await notify({ pix: [item] });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ results: [{ endToEndId: item.endToEndId, outcome: 'APPLIED' }] });
    const done = (await production.get(`/transactions/${transaction.id}`)).json();
    expect(done.status).toBe('SUCCESS');
    expect(done.receipt).toMatchObject({
      sourceAmount: '100.00',
      fee: '0.50',
      netAmount: '99.50',
      targetAmount: '19.900000',
    });
  });

  it('changes nothing when the same notification is delivered again, and answers 200', async () => {
    const transaction = await charge('30.00');
    const body = { pix: [payment(txidOf(transaction.depositInstructions.brCode), '30.00')] };
    expect((await notify(body)).statusCode).toBe(200);
    const before = (await production.get(`/transactions/${transaction.id}`)).json();
    const count = async () =>
      (
        await server.ctx.db.query<{ events: bigint; journals: bigint }>(
          `SELECT (SELECT count(*) FROM events WHERE resource_id = $1) AS events,
                  (SELECT count(*) FROM ledger_journals WHERE transaction_id = $1) AS journals`,
          [transaction.id],
        )
      )[0];
    const counted = await count();
    const again = await notify(body);
    expect(again.statusCode).toBe(200);
    expect(again.json().results[0].outcome).toBe('DUPLICATE');
    expect((await production.get(`/transactions/${transaction.id}`)).json()).toEqual(before);
    expect(await count()).toEqual(counted);
  });

  it('applies concurrent redeliveries exactly once', async () => {
    const transaction = await charge('40.00');
    const body = { pix: [payment(txidOf(transaction.depositInstructions.brCode), '40.00')] };
    const answers = await Promise.all(Array.from({ length: 5 }, () => notify(body)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const outcomes = answers.map((a) => a.json().results[0].outcome).sort();
    expect(outcomes).toEqual(['APPLIED', 'DUPLICATE', 'DUPLICATE', 'DUPLICATE', 'DUPLICATE']);
    const deposits = await server.ctx.db.query(
      "SELECT 1 FROM ledger_journals WHERE transaction_id = $1 AND kind = 'DEPOSIT_RECEIVED'",
      [transaction.id],
    );
    expect(deposits).toHaveLength(1);
  });

  it('FAILS the charge when the amount paid differs from the requested one', async () => {
    const transaction = await charge('50.00');
    await notify({ pix: [payment(txidOf(transaction.depositInstructions.brCode), '49.00')] });
    const done = (await production.get(`/transactions/${transaction.id}`)).json();
    expect(done.status).toBe('FAILED');
    expect(done.failureReason).toBe(
      'The deposit of 49.00 BRL differs from the requested 50.00 BRL; it is held for refund',
    );
  });

  it('holds a second payment of a charge already paid for refund, leaving the transaction as it was', async () => {
    const transaction = await charge('60.00');
    const txid = txidOf(transaction.depositInstructions.brCode);
    await notify({ pix: [payment(txid, '60.00')] });
    const paid = (await production.get(`/transactions/${transaction.id}`)).json();
    const second = await notify({ pix: [payment(txid, '60.00')] });
    expect(second.json().results[0].outcome).toBe('HELD_FOR_REFUND');
    expect((await production.get(`/transactions/${transaction.id}`)).json()).toEqual(paid);
    const balances = (await production.get(`/customers/${transaction.customerId}/balances`)).json();
    expect(balances.balances).toContainEqual({ currency: 'BRL', amount: '60.00' });
  });

  it('records a payment no charge has the txid of as unmatched, and answers 200', async () => {
    const item = payment('UnknownTxid0000000000000', '10.00');
    const response = await notify({ pix: [item] });
    expect(response.statusCode).toBe(200);
    expect(response.json().results[0].outcome).toBe('UNMATCHED');
    const rows = await server.ctx.db.query('SELECT outcome FROM pix_deposits WHERE end_to_end_id = $1', [
      item.endToEndId,
    ]);
    expect(rows).toEqual([{ outcome: 'UNMATCHED' }]);
  });

  it('refuses a missing, wrong or stale signature with 401, and records nothing', async () => {
    const transaction = await charge('70.00');
    const item = payment(txidOf(transaction.depositInstructions.brCode), '70.00');
    const body = { pix: [item] };
    const cases = [
      await notify(body, { signature: null }),
      await notify(body, { signature: signPixNotification('another-secret', JSON.stringify(body)) }),
      await notify(body, { signature: signPixNotification(SECRET, JSON.stringify({ pix: [] })) }),
      await notify(body, { signature: 'sha256=zz' }),
    ];
    for (const response of cases) {
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('unauthorized');
    }
    expect(
      await server.ctx.db.query('SELECT 1 FROM pix_deposits WHERE end_to_end_id = $1', [item.endToEndId]),
    ).toEqual([]);
    expect((await production.get(`/transactions/${transaction.id}`)).json().status).toBe('AWAITING_FUNDS');
  });

  it('refuses a signed body that is not a notification with 400', async () => {
    for (const body of [{}, { pix: 'nope' }, [1, 2]]) {
      const response = await notify(body);
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('invalid_request');
    }
  });

  it('processes a batch item by item: a malformed item is recorded and answered, the others applied', async () => {
    const transaction = await charge('30.00');
    const good = payment(txidOf(transaction.depositInstructions.brCode), '30.00');
    const bad = { endToEndId: 'short', txid: 'x', valor: '1', horario: 'now' };
    const response = await notify({ pix: [bad, good] });
    expect(response.statusCode).toBe(200);
    const results = response.json().results;
    expect(results[0]).toMatchObject({ endToEndId: 'short', outcome: 'MALFORMED' });
    expect(results[1]).toEqual({ endToEndId: good.endToEndId, outcome: 'APPLIED' });
    expect((await production.get(`/transactions/${transaction.id}`)).json().status).toBe('SUCCESS');
    const rejects = await server.ctx.db.query<{ reason: string }>(
      `SELECT reason FROM pix_notification_rejects WHERE item->>'endToEndId' = 'short'`,
    );
    expect(rejects.length).toBeGreaterThanOrEqual(1);
  });

  it('is not served on the sandbox listener', async () => {
    expect((await notify({ pix: [] }, { app: 'sandbox' })).statusCode).toBe(404);
  });

  it('serves sandbox customers no production charges: txids match within their environment only', async () => {
    const sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
    const customer = await approvedCustomer(sandbox, individualBody());
    const transaction = await createOnRamp(sandbox, customer.id, '10.00');
    const response = await notify({
      pix: [payment(txidOf(transaction.depositInstructions.brCode), '10.00')],
    });
    expect(response.json().results[0].outcome).toBe('UNMATCHED');
    expect((await sandbox.get(`/transactions/${transaction.id}`)).json().status).toBe('AWAITING_FUNDS');
  });
});
