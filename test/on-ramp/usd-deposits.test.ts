/**
 * Dollars in (README "US dollars"): an ACH credit or a wire to a customer's account number becomes an
 * on-ramp in USD that converts to the account's destination stablecoin and credits the customer, counted
 * against the BRL limits at the dollar's BRL value. What Ponte cannot take is returned with why and books
 * nothing; a customer on compliance hold has it held uncredited until the case is decided. A transfer
 * reported any number of times (webhook, sweep, both at once) is applied once.
 *
 * Sandbox rates: USD/USDC 1.00, USDC/BRL 5.50; on-ramp fee 0.50%.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBankTransfer, type InboundBankTransfer } from '../../src/modules/on-ramp/bank-deposit.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, client } from '../helpers/server.ts';
import { balances, eventTypes, ledgerBalances, settled, unbalanced } from '../off-ramp/support.ts';
import { decide, importFixture, OFAC_DIR, putOnHold } from '../screening/support.ts';
import { type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';

let server: IsolatedServer;
let sandbox: Client;
let projectId: string;

beforeAll(async () => {
  server = await startIsolatedServer();
  const tenant = await server.newTenant();
  projectId = tenant.projectId;
  sandbox = client(server.sandbox, tenant.sandboxKey);
});
afterAll(async () => {
  await server.close();
});

async function customerWithUsdAccount(body: Record<string, unknown> = {}) {
  const customer = await approvedCustomer(sandbox);
  const opened = await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD', ...body });
  expect(opened.statusCode, opened.body).toBe(201);
  return { customer, account: opened.json() };
}

const deposit = (accountId: string, body: Record<string, unknown>) =>
  sandbox.post(`/sandbox/accounts/${accountId}/deposit`, body);

async function counts() {
  const [row] = await server.ctx.db.query<{ transactions: number; journals: number }>(
    `SELECT (SELECT count(*)::int FROM transactions) AS transactions,
            (SELECT count(*)::int FROM ledger_journals) AS journals`,
  );
  return row!;
}

async function limitUsed(customerId: string): Promise<string> {
  const limits = (await sandbox.get(`/customers/${customerId}?includeTransactionLimits=true`)).json();
  return limits.transactionLimits.daily.used;
}

describe('dollars into a customer account', () => {
  it('converts an ACH credit into USDC credited to the customer, fees in USD, counted at its BRL value', async () => {
    const { customer, account } = await customerWithUsdAccount();
    const response = await deposit(account.id, { amount: '100.00', rail: 'ACH' });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer).toMatchObject({ outcome: 'APPLIED', returnReason: null });
    const done = await settled(sandbox, answer.transaction.id);
    expect(done).toMatchObject({
      type: 'ON_RAMP',
      status: 'SUCCESS',
      customerId: customer.id,
      request: { currency: 'USD', amount: '100.00', targetCurrency: 'USDC' },
      depositInstructions: { rail: 'ACH', accountId: account.id, amount: '100.00', currency: 'USD' },
      receipt: {
        sourceCurrency: 'USD',
        sourceAmount: '100.00',
        fee: '0.50',
        netAmount: '99.50',
        rate: '1',
        targetCurrency: 'USDC',
        targetAmount: '99.500000',
        reference: { source: 'OPERATOR', rate: '1', at: null },
      },
    });
    expect(done.timeline.map((step: { status: string }) => step.status)).toEqual([
      'TRANSFERRING_FIAT',
      'TRADING',
      'TRANSFERRING_STABLECOIN',
      'SUCCESS',
    ]);
    expect(await balances(sandbox, customer.id)).toMatchObject({ USDC: '99.500000' });
    // the customer owes nothing in USD any more: all of it converted or charged as fee
    expect((await ledgerBalances(server, customer.id)).USD ?? 0n).toBe(0n);
    expect(await unbalanced(server)).toEqual([]);
    // 100 USD × 1.00 USDC/USD × 5.50 BRL/USDC
    expect(await limitUsed(customer.id)).toBe('550.00');
    const types = await eventTypes(server, done.id);
    expect(types[0]).toBe('transaction.created');
    expect(types.filter((type) => type === 'transaction.updated')).toHaveLength(3);
  });

  it('converts a wire to the account’s destination stablecoin and chain', async () => {
    const { customer, account } = await customerWithUsdAccount({ destinationCurrency: 'USDT' });
    const answer = (await deposit(account.id, { amount: '250.00', rail: 'WIRE' })).json();
    const done = await settled(sandbox, answer.transaction.id);
    expect(done).toMatchObject({
      status: 'SUCCESS',
      depositInstructions: { rail: 'WIRE', currency: 'USD' },
      request: { targetCurrency: 'USDT', blockchain: account.blockchain },
      receipt: { targetCurrency: 'USDT', targetAmount: '248.750000' },
    });
    expect(await balances(sandbox, customer.id)).toMatchObject({ USDT: '248.750000' });
  });

  it('returns a transfer to a CLOSED account and books nothing', async () => {
    const { customer, account } = await customerWithUsdAccount();
    expect((await sandbox.delete(`/accounts/${account.id}`)).statusCode).toBe(200);
    const before = await counts();
    const answer = (await deposit(account.id, { amount: '100.00' })).json();
    expect(answer).toEqual({ outcome: 'RETURNED', transaction: null, returnReason: 'The account is closed' });
    expect(await counts()).toEqual(before);
    expect(await limitUsed(customer.id)).toBe('0.00');
    const [recorded] = await server.ctx.db.query<{
      outcome: string;
      return_reason: string;
      given_back: boolean;
    }>(
      `SELECT outcome, return_reason, returned_at IS NOT NULL AS given_back
         FROM inbound_bank_transfers WHERE account_id = $1`,
      [account.id],
    );
    // the sandbox's bank gives it back at once: no return is left waiting for a bank
    expect(recorded).toEqual({
      outcome: 'RETURNED',
      return_reason: 'The account is closed',
      given_back: true,
    });
  });

  it('returns a transfer over the customer’s limit (its BRL value) and books nothing', async () => {
    const { customer, account } = await customerWithUsdAccount();
    const before = await counts();
    // 2,000 USD is 11,000.00 BRL, over an individual's single limit of 7,500.00 BRL
    const answer = (await deposit(account.id, { amount: '2000.00' })).json();
    expect(answer.outcome).toBe('RETURNED');
    expect(answer.returnReason).toContain('per-transaction limit');
    expect(await counts()).toEqual(before);
    expect(await limitUsed(customer.id)).toBe('0.00');
  });

  it('holds a transfer to a customer on compliance hold uncredited until the case is cleared', async () => {
    await importFixture(server, 'ofac-sdn', OFAC_DIR);
    const { customer, account } = await customerWithUsdAccount();
    const caseId = await putOnHold(server, { projectId, environment: 'sandbox' }, customer.id);
    const answer = (await deposit(account.id, { amount: '100.00' })).json();
    expect(answer.outcome).toBe('HELD');
    expect(answer.transaction).toMatchObject({ status: 'TRANSFERRING_FIAT', receipt: null });
    // owed to the customer in USD, not converted, nothing in the wallet
    expect((await ledgerBalances(server, customer.id)).USD).toBe(10_000n);
    expect((await balances(sandbox, customer.id)).USDC ?? '0.000000').toBe('0.000000');
    await decide(server, caseId, 'CLEAR');
    const done = await settled(sandbox, answer.transaction.id);
    expect(done.status).toBe('SUCCESS');
    expect(await balances(sandbox, customer.id)).toMatchObject({ USDC: '99.500000' });
  });

  it('applies a transfer reported twice at once exactly once', async () => {
    const { customer, account } = await customerWithUsdAccount();
    const [row] = await server.ctx.db.query<{ bank_account_number_id: string }>(
      'SELECT bank_account_number_id FROM customer_accounts WHERE id = $1',
      [account.id],
    );
    const transfer: InboundBankTransfer = {
      bank: 'SANDBOX',
      bankTransferId: `sandbox_inbound_ach_${crypto.randomUUID()}`,
      rail: 'ACH',
      accountNumberId: row!.bank_account_number_id,
      amount: 4_000n,
      originatorName: 'ACME PAYROLL',
      at: new Date(),
      payload: {},
    };
    const results = await Promise.all([
      applyBankTransfer(server.ctx, 'sandbox', transfer),
      applyBankTransfer(server.ctx, 'sandbox', transfer),
      applyBankTransfer(server.ctx, 'sandbox', transfer),
    ]);
    expect(results.map((result) => result.outcome).sort()).toEqual(['APPLIED', 'DUPLICATE', 'DUPLICATE']);
    const ramps = await server.ctx.db.query(
      "SELECT id FROM transactions WHERE customer_id = $1 AND type = 'ON_RAMP'",
      [customer.id],
    );
    expect(ramps).toHaveLength(1);
    await settled(sandbox, (ramps[0] as { id: string }).id);
    expect(await balances(sandbox, customer.id)).toMatchObject({ USDC: '39.800000' });
  });

  it('refuses a bad amount (400) and an account of another project (404), creating nothing', async () => {
    const { account } = await customerWithUsdAccount();
    const before = await counts();
    for (const amount of ['0.00', '1.001', '-5.00']) {
      const response = await deposit(account.id, { amount });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    const other = await server.newTenant();
    const stranger = client(server.sandbox, other.sandboxKey);
    expect(
      (await stranger.post(`/sandbox/accounts/${account.id}/deposit`, { amount: '1.00' })).statusCode,
    ).toBe(404);
    expect(await counts()).toEqual(before);
  });
});
