/**
 * USD accounts whose numbers Increase opens: the sandbox pointed at a bank (PONTE_SANDBOX_USD_BANK=increase)
 * talks to the bank simulator through the official SDK. One account number per customer account under
 * Ponte's account (https://increase.com/documentation/api/account-numbers); closing disables it, and the
 * bank then declines what arrives for it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountNumbersFor } from '../../src/modules/accounts/numbers.ts';
import { createAccountService } from '../../src/modules/accounts/service.ts';
import { approvedCustomer } from '../helpers/factories.ts';
import { type Client, startTestApi, type TestServer } from '../helpers/server.ts';
import {
  type IncreaseSimulator,
  SIMULATOR_ACCOUNT_ID,
  SIMULATOR_API_KEY,
  SIMULATOR_ROUTING_NUMBER,
  startIncreaseSimulator,
} from '../increase/simulator.ts';

const SECRET = 'accounts-webhook-secret';

let sim: IncreaseSimulator;
let server: TestServer;
let sandbox: Client;

beforeAll(async () => {
  sim = await startIncreaseSimulator({ webhookSecret: SECRET });
  ({ server, sandbox } = await startTestApi({
    env: {
      PONTE_SANDBOX_USD_BANK: 'increase',
      PONTE_SANDBOX_INCREASE_URL: sim.url,
      PONTE_SANDBOX_INCREASE_API_KEY: SIMULATOR_API_KEY,
      PONTE_SANDBOX_INCREASE_ACCOUNT_ID: SIMULATOR_ACCOUNT_ID,
      PONTE_SANDBOX_INCREASE_WEBHOOK_SECRET: SECRET,
    },
  }));
});
afterEach(() => {
  expect(sim.violations).toEqual([]);
});
afterAll(async () => {
  await server.close();
  await sim.close();
});

const simulatorNumber = (accountId: string) =>
  [...sim.accountNumbers.values()].find((n) => n.idempotency_key === `customer-account-${accountId}`);

describe('USD accounts at Increase', () => {
  it("opens one Increase account number per account, under Ponte's account, and gives its deposit instructions", async () => {
    const customer = await approvedCustomer(sandbox);
    const response = await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' });
    expect(response.statusCode, response.body).toBe(201);
    const account = response.json();
    const number = simulatorNumber(account.id);
    expect(number).toMatchObject({ account_id: SIMULATOR_ACCOUNT_ID, status: 'active' });
    expect(account).toMatchObject({
      status: 'ACTIVE',
      depositInstructions: {
        rails: ['ACH', 'WIRE'],
        routingNumber: SIMULATOR_ROUTING_NUMBER,
        accountNumber: number?.account_number,
        // the bank's name as Increase's routing number lookup gives it
        bankName: 'FIRST INTERNET BANK OF INDIANA',
        beneficiaryName: 'Ana Souza',
      },
    });
  });

  it('closing the account disables its account number: a later ACH credit is declined by the bank', async () => {
    const customer = await approvedCustomer(sandbox);
    const account = (await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' })).json();
    const closed = await sandbox.delete(`/accounts/${account.id}`);
    expect(closed.json().status).toBe('CLOSED');
    const number = simulatorNumber(account.id);
    expect(number?.status).toBe('disabled');
    const inbound = await fetch(`${sim.url}/simulations/inbound_ach_transfers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SIMULATOR_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ account_number_id: number?.id, amount: 1000 }),
    });
    expect(((await inbound.json()) as { status: string }).status).toBe('declined');
  });

  it('an account whose number the bank could not open stays PROVISIONING, without deposit instructions', async () => {
    const customer = await approvedCustomer(sandbox);
    sim.faults.failNext = 3; // the first call and the SDK's two retries
    const response = await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ status: 'PROVISIONING', depositInstructions: null });
    expect(simulatorNumber(response.json().id)).toBeUndefined();
    expect((await sandbox.get(`/accounts/${response.json().id}`)).json().status).toBe('PROVISIONING');
  });

  it('provisions an account left PROVISIONING again: ACTIVE with its number and event, one number at the bank', async () => {
    const customer = await approvedCustomer(sandbox);
    sim.faults.failNext = 3;
    const id = (await sandbox.post(`/customers/${customer.id}/accounts`, { currency: 'USD' })).json().id;
    const accounts = createAccountService({
      ...server.ctx,
      numbers: accountNumbersFor(server.ctx.config, 'sandbox'),
    });
    // not yet due: created less than a minute ago
    expect(await accounts.provisionPending('sandbox', 60_000)).toBe(0);
    expect(await accounts.provisionPending('sandbox', 0)).toBeGreaterThanOrEqual(1);
    const account = (await sandbox.get(`/accounts/${id}`)).json();
    expect(account).toMatchObject({
      status: 'ACTIVE',
      depositInstructions: { accountNumber: simulatorNumber(id)?.account_number },
    });
    const numbers = [...sim.accountNumbers.values()].filter(
      (n) => n.idempotency_key === `customer-account-${id}`,
    );
    expect(numbers).toHaveLength(1);
    const events = (await sandbox.get('/events?type=account.updated&limit=50')).json().data;
    expect(
      events
        .filter((event: { data: { id: string } }) => event.data.id === id)
        .map((e: { data: { status: string } }) => e.data.status),
    ).toEqual(['ACTIVE', 'PROVISIONING']);
  });
});
