/**
 * Dollars out in the sandbox's own bank (README "US dollars"): an off-ramp to a US bank account pays USD
 * over ACH or wire at the stablecoin's USD rate, counts against the BRL limits at its BRL value, settles by
 * itself (a sourceAmount ending in .13 is refused), and a settled ACH is returned with a Nacha code
 * (`POST /sandbox/transactions/{id}/return {code}`), its USD back in the customer's balance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedCustomer, type CustomerView, createCustomer } from '../helpers/factories.ts';
import { type Client, client } from '../helpers/server.ts';
import { type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import {
  balances,
  customerWithAccount,
  eventTypes,
  fund,
  ledgerBalances,
  offRamp,
  settled,
  unbalanced,
} from './support.ts';
import { usAccount, usAccountBody } from './usd-support.ts';

// Sandbox default rates: USDC/USD 1, USDC/BRL 5.50; 0.50% off-ramp fee.
let server: IsolatedServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startIsolatedServer();
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(() => server.close());

async function fundedWithUs(rail: 'ACH' | 'WIRE' = 'ACH'): Promise<{ customer: CustomerView; usId: string }> {
  const customer = await approvedCustomer(sandbox);
  await fund(sandbox, customer.id, '1000.00');
  return { customer, usId: await usAccount(sandbox, customer, rail) };
}

/** The sums of the platform's own accounts in a transaction's journals, per account and currency. */
async function platformMoves(transactionId: string): Promise<Record<string, bigint>> {
  const rows = await server.ctx.db.query<{ account: string; currency: string; total: string }>(
    `SELECT e.account, e.currency, sum(e.amount)::text AS total
       FROM ledger_entries e JOIN ledger_journals j ON j.id = e.journal_id
      WHERE j.transaction_id = $1 AND e.customer_id IS NULL
      GROUP BY e.account, e.currency`,
    [transactionId],
  );
  return Object.fromEntries(rows.map((r) => [`${r.account}:${r.currency}`, BigInt(r.total)]));
}

async function limitAmountBrl(transactionId: string): Promise<bigint> {
  const rows = await server.ctx.db.query<{ limit_amount_brl: string }>(
    'SELECT limit_amount_brl::text FROM transactions WHERE id = $1',
    [transactionId],
  );
  return BigInt(rows[0]!.limit_amount_brl);
}

describe('off-ramps to US bank accounts (sandbox)', () => {
  it('pays USDC out as USD over ACH: SUCCESS, the USD left the bank account, the BRL limits counted at its BRL value', async () => {
    const { customer, usId } = await fundedWithUs();
    const response = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: usId,
      sourceCurrency: 'USDC',
      sourceAmount: '100',
      memo: 'Invoice 17',
    });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      type: 'OFF_RAMP',
      request: {
        sourceCurrency: 'USDC',
        sourceAmount: '100.000000',
        targetCurrency: 'USD',
        bankAccountId: usId,
      },
      payout: { rail: 'ACH', bankAccountId: usId, endToEndId: null },
      receipt: { targetCurrency: 'USD', targetAmount: '99.50', rate: '1' },
    });
    const done = await settled(sandbox, created.id);
    expect(done.status).toBe('SUCCESS');
    expect(done.timeline.map((s: { status: string }) => s.status)).toEqual([
      'TRANSFERRING_STABLECOIN',
      'TRADING',
      'TRANSFERRING_FIAT',
      'SUCCESS',
    ]);
    expect(await balances(sandbox, customer.id)).toMatchObject({ USDC: '79.100000' });
    // 100 USDC × 5.50 BRL/USDC
    expect(await limitAmountBrl(created.id)).toBe(55_000n);
    expect(await platformMoves(created.id)).toMatchObject({
      'BANK_SETTLEMENT:USD': -9_950n,
      'PAYOUT_IN_TRANSIT:USD': 0n,
      'CONVERSION_DESK:USD': 9_950n,
    });
    expect(await unbalanced(server)).toEqual([]);
    expect(await eventTypes(server, created.id)).toContain('transaction.updated');
  });

  it('pays over WIRE to a WIRE account', async () => {
    const { customer, usId } = await fundedWithUs('WIRE');
    const response = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: usId,
      sourceCurrency: 'USDT',
      sourceAmount: '10',
    });
    // USDT was never funded: the reserve refuses it, nothing booked
    expect(response.statusCode).toBe(422);
    const usdc = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: usId,
      sourceCurrency: 'USDC',
      sourceAmount: '10',
    });
    expect(usdc.statusCode, usdc.body).toBe(201);
    const done = await settled(sandbox, usdc.json().id);
    expect(done).toMatchObject({
      status: 'SUCCESS',
      payout: { rail: 'WIRE' },
      receipt: { targetAmount: '9.95' },
    });
  });

  it('settles at a LOCKED USDC→USD quote exactly, its BRL value what the limits count', async () => {
    const { customer, usId } = await fundedWithUs();
    const quoted = await sandbox.post('/exchange-rates', {
      type: 'LOCKED',
      sourceCurrency: 'USDC',
      targetCurrency: 'USD',
      sourceAmount: '50',
      timeLock: '1m',
    });
    expect(quoted.statusCode, quoted.body).toBe(201);
    const response = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: usId,
      exchangeRateId: quoted.json().id,
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      request: { exchangeRateId: quoted.json().id, targetCurrency: 'USD' },
      receipt: { sourceAmount: '50.000000', targetAmount: quoted.json().targetAmount, targetCurrency: 'USD' },
    });
    expect(await limitAmountBrl(response.json().id)).toBe(27_500n);
    expect((await settled(sandbox, response.json().id)).status).toBe('SUCCESS');
  });

  it('refuses a BRL quote, or a BRL balance, for a USD account (400), an unknown account (404) and an unverified holder (409), and books nothing', async () => {
    const { customer, usId } = await fundedWithUs();
    const brlQuote = await sandbox.post('/exchange-rates', {
      type: 'LOCKED',
      sourceCurrency: 'USDC',
      targetCurrency: 'BRL',
      sourceAmount: '50',
      timeLock: '1m',
    });
    expect(brlQuote.statusCode).toBe(201);
    const withQuote = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: usId,
      exchangeRateId: brlQuote.json().id,
    });
    expect(withQuote.statusCode).toBe(400);
    expect(withQuote.json().errors[0].pointer).toBe('/body/exchangeRateId');
    const fromBrl = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: usId,
      sourceCurrency: 'BRL',
      sourceAmount: '50.00',
    });
    expect(fromBrl.statusCode).toBe(400);
    expect(fromBrl.json().errors[0]).toMatchObject({ pointer: '/body/sourceCurrency' });
    // an account that does not exist is not found, whatever the currency asked
    const unknown = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: '0190b5a4-0000-7000-8000-000000000009',
      sourceCurrency: 'USD',
      sourceAmount: '5.00',
    });
    expect(unknown.statusCode).toBe(404);
    // a supplier's account pays out only once its holder is screened and APPROVED, as a PIX one
    const supplier = usAccountBody(customer);
    const thirdParty = await sandbox.post('/bank-accounts', {
      ...supplier,
      holder: {
        ...supplier.holder,
        type: 'BUSINESS',
        relationship: 'THIRD_PARTY',
        legalName: 'Initech Supplies Inc',
      },
    });
    expect(thirdParty.statusCode, thirdParty.body).toBe(201);
    expect(thirdParty.json().holder.verification.status).toBe('UNDER_VERIFICATION');
    const unverified = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: thirdParty.json().id,
      sourceCurrency: 'USDC',
      sourceAmount: '10',
      purpose: 'TRADE_TRANSACTIONS',
    });
    expect(unverified.statusCode).toBe(409);
    expect(unverified.json().code).toBe('bank_account_not_verified');
    expect(await balances(sandbox, customer.id)).toMatchObject({ USDC: '179.100000' });
  });

  it('FAILS a payout the receiving bank refuses (sandbox: a sourceAmount ending in .13), the reserve back in the balance', async () => {
    const { customer, usId } = await fundedWithUs();
    const response = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: usId,
      sourceCurrency: 'USDC',
      sourceAmount: '20.13',
    });
    expect(response.statusCode).toBe(201);
    const done = await settled(sandbox, response.json().id);
    expect(done).toMatchObject({ status: 'FAILED', failureCode: 'payout_rejected' });
    expect(done.failureReason).toMatch(/^The ACH transfer was rejected: .*\.13/);
    expect(await balances(sandbox, customer.id)).toMatchObject({ USDC: '179.100000' });
    expect(await unbalanced(server)).toEqual([]);
  });

  it('returns a SUCCESS ACH payout with its Nacha code: RETURNED, failureCode ach_returned, returnCode R03, the USD in the customer balance', async () => {
    const { customer, usId } = await fundedWithUs();
    const created = (
      await offRamp(sandbox, {
        customerId: customer.id,
        bankAccountId: usId,
        sourceCurrency: 'USDC',
        sourceAmount: '100',
      })
    ).json();
    expect((await settled(sandbox, created.id)).status).toBe('SUCCESS');
    const unknownCode = await sandbox.post(`/sandbox/transactions/${created.id}/return`, { code: 'R99' });
    expect(unknownCode.statusCode).toBe(400);
    expect(unknownCode.json().errors[0].pointer).toBe('/body/code');
    const response = await sandbox.post(`/sandbox/transactions/${created.id}/return`, { code: 'R03' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'RETURNED',
      failureCode: 'ach_returned',
      returnCode: 'R03',
      returnReason: 'returned by the receiving bank: R03 (no account)',
    });
    expect(await balances(sandbox, customer.id)).toMatchObject({ USD: '99.50' });
    expect((await ledgerBalances(server, customer.id)).USD).toBe(9_950n);
    expect(await platformMoves(created.id)).toMatchObject({ 'BANK_SETTLEMENT:USD': 0n });
    const again = await sandbox.post(`/sandbox/transactions/${created.id}/return`, {});
    expect(again.statusCode).toBe(409);
    expect(await unbalanced(server)).toEqual([]);

    // the dollars that came back are paid out again as they are: USD, at rate 1, its fee in USD
    const resent = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: usId,
      sourceCurrency: 'USD',
      sourceAmount: '50.00',
    });
    expect(resent.statusCode, resent.body).toBe(201);
    expect(resent.json().receipt).toMatchObject({
      sourceCurrency: 'USD',
      fee: '0.25',
      rate: '1',
      targetCurrency: 'USD',
      targetAmount: '49.75',
    });
    // 50 USD × 1 USDC/USD × 5.50 BRL/USDC
    expect(await limitAmountBrl(resent.json().id)).toBe(27_500n);
    expect((await settled(sandbox, resent.json().id)).status).toBe('SUCCESS');
    expect(await balances(sandbox, customer.id)).toMatchObject({ USD: '49.50' });
    // dollars do not go out over PIX
    const { accountId: pixId } = await customerWithAccount(sandbox);
    const overPix = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: pixId,
      sourceCurrency: 'USD',
      sourceAmount: '10.00',
    });
    expect(overPix.statusCode).toBe(400);
    expect(overPix.json().errors[0].pointer).toBe('/body/sourceCurrency');
    expect(await unbalanced(server)).toEqual([]);
  });

  it('returns an ACH payout with R01 when no code is given; a wire is reversed without one', async () => {
    const ach = await fundedWithUs('ACH');
    const paid = (
      await offRamp(sandbox, {
        customerId: ach.customer.id,
        bankAccountId: ach.usId,
        sourceCurrency: 'USDC',
        sourceAmount: '10',
      })
    ).json();
    await settled(sandbox, paid.id);
    const returned = await sandbox.post(`/sandbox/transactions/${paid.id}/return`, {});
    expect(returned.json()).toMatchObject({
      status: 'RETURNED',
      returnCode: 'R01',
      failureCode: 'ach_returned',
    });

    const wire = await fundedWithUs('WIRE');
    const sent = (
      await offRamp(sandbox, {
        customerId: wire.customer.id,
        bankAccountId: wire.usId,
        sourceCurrency: 'USDC',
        sourceAmount: '10',
      })
    ).json();
    await settled(sandbox, sent.id);
    const withCode = await sandbox.post(`/sandbox/transactions/${sent.id}/return`, { code: 'R01' });
    expect(withCode.statusCode).toBe(400);
    const reversed = await sandbox.post(`/sandbox/transactions/${sent.id}/return`, {});
    expect(reversed.json()).toMatchObject({
      status: 'RETURNED',
      returnCode: null,
      failureCode: 'wire_reversed',
    });
    expect(await balances(sandbox, wire.customer.id)).toMatchObject({ USD: '9.95' });
  });

  it('keeps PIX payouts as they were: a PIX return takes no code', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '100.00');
    const paid = (
      await offRamp(sandbox, {
        customerId: customer.id,
        bankAccountId: accountId,
        sourceCurrency: 'USDC',
        sourceAmount: '5',
      })
    ).json();
    expect((await settled(sandbox, paid.id)).payout.rail).toBe('PIX');
    const withCode = await sandbox.post(`/sandbox/transactions/${paid.id}/return`, { code: 'R01' });
    expect(withCode.statusCode).toBe(400);
    const returned = await sandbox.post(`/sandbox/transactions/${paid.id}/return`, {});
    expect(returned.json()).toMatchObject({ status: 'RETURNED', failureCode: null, returnCode: null });
  });

  it('answers 503 in production until a US bank is configured (PONTE_USD_BANK), naming the US bank', async () => {
    const production = client(server.production, (await server.newTenant('Prod USD')).productionKey);
    const customer = await createCustomer(production);
    const account = await production.post('/bank-accounts', usAccountBody(customer));
    expect(account.statusCode, account.body).toBe(201);
    const response = await offRamp(production, {
      customerId: customer.id,
      bankAccountId: account.json().id,
      sourceCurrency: 'USDC',
      sourceAmount: '1',
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      code: 'service_unavailable',
      detail: 'USD off-ramps are not available: the US bank is not configured',
    });
  });
});
