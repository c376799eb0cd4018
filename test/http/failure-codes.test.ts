/**
 * `failureCode`: a stable snake_case code beside `failureReason` on transactions that FAILED or EXPIRED,
 * null on the others, and documented as a closed set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILURE_CODES } from '../../src/core/failure-codes.ts';
import { type Client, startTestApi, type TestServer } from '../helpers/server.ts';
import { customerWithAccount, offRamp, settled } from '../off-ramp/support.ts';
import { approvedIndividual, createOnRamp } from '../transactions/support.ts';
import { fund } from '../wallets/support.ts';

let server: TestServer;
let sandbox: Client;

beforeAll(async () => {
  ({ server, sandbox } = await startTestApi());
});
afterAll(() => server.close());

describe('failureCode', () => {
  it('is null while nothing failed, and deposit_amount_mismatch when the deposit differs', async () => {
    const customer = await approvedIndividual(sandbox);
    const ramp = await createOnRamp(sandbox, customer.id, '10.00');
    expect(ramp.failureCode).toBeNull();
    const paid = (await sandbox.post(`/sandbox/transactions/${ramp.id}/deposit`, { amount: '9.00' })).json();
    expect(paid.status).toBe('FAILED');
    expect(paid.failureCode).toBe('deposit_amount_mismatch');
    expect(paid.failureReason).toMatch(/differs from the requested/);
    expect((await sandbox.get(`/transactions/${ramp.id}`)).json().failureCode).toBe(
      'deposit_amount_mismatch',
    );
  });

  it('is deposit_window_expired on an expired charge, in the answer and in its event', async () => {
    const customer = await approvedIndividual(sandbox);
    const ramp = await createOnRamp(sandbox, customer.id, '10.00');
    const expired = (await sandbox.post(`/sandbox/transactions/${ramp.id}/expire`, {})).json();
    expect(expired).toMatchObject({ status: 'EXPIRED', failureCode: 'deposit_window_expired' });
    const events = (await sandbox.get('/events?type=transaction.updated&limit=50')).json().data;
    const event = events.find((item: { data: { id: string } }) => item.data.id === ramp.id);
    expect(event.data.failureCode).toBe('deposit_window_expired');
  });

  it('is payout_rejected when the rail rejects an off-ramp', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    await fund(sandbox, customer.id, '100');
    const created = (
      await offRamp(sandbox, {
        customerId: customer.id,
        bankAccountId: accountId,
        sourceCurrency: 'USDC',
        sourceAmount: '10.13',
      })
    ).json();
    expect(created.failureCode).toBeNull();
    const done = await settled(sandbox, created.id);
    expect(done).toMatchObject({ status: 'FAILED', failureCode: 'payout_rejected' });
  });

  it('is documented as the closed set of codes', async () => {
    const document = (await server.sandbox.inject({ url: '/openapi.json' })).json();
    const schema = document.components.schemas.Transaction.properties.failureCode;
    expect(JSON.stringify(schema)).toContain(JSON.stringify([...FAILURE_CODES]));
    for (const code of FAILURE_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});
