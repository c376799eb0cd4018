import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validCpf } from '../../../test/helpers/factories.ts';
import { setRate } from '../../../test/transactions/support.ts';
import type { Ponte } from '../src/index.ts';
import { type SdkServer, STARTUP_TIMEOUT_MS, startSdkServer, until } from './support.ts';

let server: SdkServer;
let ponte: Ponte;

beforeAll(async () => {
  server = await startSdkServer();
  ponte = server.ponte();
}, STARTUP_TIMEOUT_MS);
afterAll(() => server?.close());

describe('the sandbox flow through the SDK', () => {
  it('onboards, verifies, raises limits, registers a PIX account and settles an on-ramp', async () => {
    expect(ponte.environment).toBe('sandbox');
    const taxId = validCpf('5');
    const customer = await ponte.customers.create({
      type: 'INDIVIDUAL',
      name: 'João Silva',
      taxId,
      country: 'BRA',
      email: 'joao@example.com',
    });
    expect(customer).toMatchObject({ type: 'INDIVIDUAL', taxId });

    const approved = await until(
      () => ponte.customers.retrieve(customer.id),
      (read) => read.verification.status === 'APPROVED',
    );
    const verification = await ponte.verifications.retrieve(customer.id, approved.verification.id);
    expect(verification).toMatchObject({ customerId: customer.id, status: 'APPROVED' });

    const request = await ponte.limitRequests.create(customer.id, {
      requested: { single: '10000.00', daily: '20000.00', monthly: '50000.00' },
    });
    expect(request.status).toBe('IN_REVIEW');
    expect(await ponte.limitRequests.retrieve(customer.id, request.id)).toEqual(request);
    const requests = await ponte.limitRequests.list(customer.id);
    expect(requests.data.map((item) => item.id)).toEqual([request.id]);

    const account = await ponte.bankAccounts.create({
      customerId: customer.id,
      name: 'Conta principal',
      rail: 'PIX',
      currency: 'BRL',
      identifier: { keyType: 'CPF', keyValue: taxId.replace(/\D/g, '') },
      holder: {
        type: 'INDIVIDUAL',
        relationship: 'SELF',
        legalName: 'João Silva',
        taxId,
        email: 'joao@example.com',
        address: {
          line1: 'Av. Paulista, 1000',
          city: 'São Paulo',
          state: 'SP',
          postalCode: '01310-100',
          country: 'BRA',
        },
      },
    });
    expect(await ponte.bankAccounts.retrieve(account.id)).toEqual(account);
    const accounts = await ponte.bankAccounts.list({ customerId: customer.id });
    expect(accounts.data.map((item) => item.id)).toEqual([account.id]);

    await setRate(server, 'BRL/USDC', '0.1825');
    const onRamp = await ponte.transactions.onRamp({
      customerId: customer.id,
      currency: 'BRL',
      amount: '1500.00',
      targetCurrency: 'USDC',
    });
    await ponte.sandbox.deposit(onRamp.id);
    const settled = await until(
      () => ponte.transactions.retrieve(onRamp.id),
      (read) => read.status === 'SUCCESS',
    );
    expect(settled.id).toBe(onRamp.id);
    const listed = await ponte.transactions.list({ customerId: customer.id });
    expect(listed.data.map((item) => item.id)).toEqual([onRamp.id]);

    await ponte.bankAccounts.del(account.id);
    const gone = await ponte.bankAccounts.list({ customerId: customer.id });
    expect(gone.data).toEqual([]);
  });

  it('moves a verification with the sandbox simulation', async () => {
    const customer = await ponte.customers.create({
      type: 'INDIVIDUAL',
      name: 'Maria Lima',
      taxId: validCpf('1'),
      country: 'BRA',
      email: 'maria@example.com',
    });
    const moved = await ponte.sandbox.simulateVerification(customer.id, { status: 'UNDER_VERIFICATION' });
    expect(moved.status).toBe('UNDER_VERIFICATION');
  });
});
