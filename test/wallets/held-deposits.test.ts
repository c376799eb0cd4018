/**
 * An inbound chain deposit to a customer on compliance hold is held uncredited, as one from a listed
 * address is, until the customer's case is decided: cleared, it is credited; confirmed, it FAILS, never
 * credited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenSubject } from '../../src/modules/screening/service.ts';
import { approvedCustomer, individualBody } from '../helpers/factories.ts';
import { startTestApi, type TestApi } from '../helpers/server.ts';
import { importFixture, OFAC_DIR } from '../screening/support.ts';
import { totalOf, walletOn } from './support.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ ownDatabase: true });
  await importFixture(api.server, 'ofac-sdn', OFAC_DIR);
});
afterAll(() => api.server.close());

/** The customer put on hold as a re-screening does when a new list version names it; the case's id. */
async function putOnHold(customerId: string): Promise<string> {
  const opened = await api.server.ctx.db.transaction((tx) =>
    screenSubject(
      tx,
      {
        type: 'CUSTOMER',
        id: customerId,
        customerId,
        tenant: { projectId: api.tenant.projectId, environment: 'sandbox' },
        party: {
          name: 'João Carlos dos Santos da Silva',
          kind: 'INDIVIDUAL',
          birthDate: '1975-02-02',
          country: 'BRA',
        },
      },
      api.server.config.screening.threshold,
      api.server.ctx.clock(),
    ),
  );
  return opened!.row.id;
}

async function decide(caseId: string, decision: 'CLEAR' | 'CONFIRM') {
  const response = await api.operator.post(`/operator/screening/cases/${caseId}/decision`, {
    decision,
    comment: 'reviewed against the list entry',
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** A held customer receives 5.00 USDC on chain: the deposit waits, uncredited. */
async function depositToHeld() {
  const customer = await approvedCustomer(api.sandbox, individualBody());
  const caseId = await putOnHold(customer.id);
  const wallet = await walletOn(api.sandbox, customer.id, 'ETHEREUM');
  const response = await api.sandbox.post(`/sandbox/wallets/${wallet.address}/deposit`, {
    currency: 'USDC',
    amount: '5.00',
  });
  expect(response.statusCode).toBe(201);
  const deposit = response.json();
  expect(deposit).toMatchObject({ type: 'DEPOSIT', status: 'PROCESSING' });
  expect(await totalOf(api.sandbox, customer.id, 'USDC')).toBe('0.000000');
  return { customer, caseId, deposit };
}

const read = async (id: string) => (await api.sandbox.get(`/transactions/${id}`)).json();

describe('a chain deposit to a customer on compliance hold', () => {
  it('is held uncredited until the case is cleared, then credited', async () => {
    const { customer, caseId, deposit } = await depositToHeld();
    expect((await read(deposit.id)).status).toBe('PROCESSING');
    await decide(caseId, 'CLEAR');
    expect((await read(deposit.id)).status).toBe('SUCCESS');
    expect(await totalOf(api.sandbox, customer.id, 'USDC')).toBe('5.000000');
  });

  it('FAILS uncredited when the match is confirmed', async () => {
    const { customer, caseId, deposit } = await depositToHeld();
    await decide(caseId, 'CONFIRM');
    expect(await read(deposit.id)).toMatchObject({ status: 'FAILED', failureCode: 'compliance_refused' });
    expect(await totalOf(api.sandbox, customer.id, 'USDC')).toBe('0.000000');
    const journals = await api.server.ctx.db.query(
      "SELECT 1 FROM ledger_journals WHERE kind = 'CHAIN_DEPOSIT' AND reference = $1",
      [deposit.id],
    );
    expect(journals).toEqual([]);
  });
});
