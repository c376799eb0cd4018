/**
 * The SDK's dollars: USD accounts opened for an approved customer, listed, read and closed through
 * `ponte.accounts`; a US bank account (`bankAccounts.create` with rail ACH) paid out to with
 * `transactions.offRamp`, and its return simulated with a Nacha code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { individualBody, validCpf } from '../../../test/helpers/factories.ts';
import { type CreateUsBankAccountParams, type Ponte, PonteApiError } from '../src/index.ts';
import { type SdkServer, STARTUP_TIMEOUT_MS, startSdkServer, until } from './support.ts';

let server: SdkServer;
let ponte: Ponte;

beforeAll(async () => {
  server = await startSdkServer();
  ponte = server.ponte();
}, STARTUP_TIMEOUT_MS);
afterAll(() => server?.close());

describe('ponte.accounts', () => {
  it('creates, lists, retrieves and closes a USD account', async () => {
    const customer = await ponte.customers.create(individualBody() as never);
    await until(
      () => ponte.customers.retrieve(customer.id),
      (found) => found.verification.status === 'APPROVED',
    );
    const account = await ponte.accounts.create(customer.id, {
      currency: 'USD',
      destinationCurrency: 'USDT',
    });
    expect(account).toMatchObject({ status: 'ACTIVE', currency: 'USD', destinationCurrency: 'USDT' });
    expect(account.depositInstructions?.rails).toEqual(['ACH', 'WIRE']);
    const listed = [];
    for await (const item of ponte.accounts.list(customer.id)) listed.push(item.id);
    expect(listed).toEqual([account.id]);
    expect(await ponte.accounts.retrieve(account.id)).toEqual(account);
    const closed = await ponte.accounts.close(account.id);
    expect(closed).toMatchObject({ id: account.id, status: 'CLOSED' });
  });

  it('ponte.sandbox.accountDeposit applies an ACH credit or a wire to the account and returns one to a closed account', async () => {
    const customer = await ponte.customers.create(individualBody({ taxId: validCpf('7') }) as never);
    await until(
      () => ponte.customers.retrieve(customer.id),
      (found) => found.verification.status === 'APPROVED',
    );
    const account = await ponte.accounts.create(customer.id, { currency: 'USD' });
    const ach = await ponte.sandbox.accountDeposit(account.id, { amount: '100.00' });
    expect(ach).toMatchObject({ outcome: 'APPLIED', returnReason: null });
    expect(ach.transaction).toMatchObject({
      type: 'ON_RAMP',
      request: { currency: 'USD', amount: '100.00' },
      depositInstructions: { rail: 'ACH', accountId: account.id, currency: 'USD' },
    });
    const wire = await ponte.sandbox.accountDeposit(account.id, { amount: '250.00', rail: 'WIRE' });
    expect(wire.transaction?.depositInstructions).toMatchObject({ rail: 'WIRE', accountId: account.id });
    const settled = await until(
      () => ponte.transactions.retrieve(wire.transaction!.id),
      (read) => read.status === 'SUCCESS',
    );
    expect(settled.type).toBe('ON_RAMP');

    await ponte.accounts.close(account.id);
    const returned = await ponte.sandbox.accountDeposit(account.id, { amount: '5.00' });
    expect(returned.outcome).toBe('RETURNED');
    expect(returned.transaction).toBeNull();
    expect(returned.returnReason).toEqual(expect.any(String));
  });

  it('a customer not approved gets the typed 409 customer_not_approved', async () => {
    const customer = await ponte.customers.create(individualBody({ taxId: validCpf('1') }) as never);
    const error = await ponte.accounts.create(customer.id, { currency: 'USD' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PonteApiError);
    expect((error as PonteApiError).code).toBe('customer_not_approved');
  });

  it('pays USD out to a US bank account over ACH, and ponte.sandbox.returnPayout returns it with a Nacha code', async () => {
    const customer = await ponte.customers.create(individualBody({ taxId: validCpf('5') }) as never);
    const approved = await until(
      () => ponte.customers.retrieve(customer.id),
      (found) => found.verification.status === 'APPROVED',
    );
    const account = await ponte.accounts.create(customer.id, { currency: 'USD' });
    const funded = await ponte.sandbox.accountDeposit(account.id, { amount: '200.00' });
    await until(
      () => ponte.transactions.retrieve(funded.transaction!.id),
      (read) => read.status === 'SUCCESS',
    );
    const body: CreateUsBankAccountParams = {
      customerId: customer.id,
      name: 'Checking at Chase',
      rail: 'ACH',
      currency: 'USD',
      identifier: { routingNumber: '021000021', accountNumber: '000123456789', accountType: 'CHECKING' },
      holder: {
        type: 'INDIVIDUAL',
        relationship: 'SELF',
        legalName: approved.name as string,
        email: 'ana@example.com',
        address: {
          line1: '350 Fifth Avenue',
          city: 'New York',
          state: 'NY',
          postalCode: '10118',
          country: 'USA',
        },
      },
    };
    const bank = await ponte.bankAccounts.create(body);
    expect(bank).toMatchObject({
      rail: 'ACH',
      currency: 'USD',
      holder: { verification: { status: 'APPROVED' } },
    });
    const offRamp = await ponte.transactions.offRamp({
      customerId: customer.id,
      bankAccountId: bank.id,
      sourceCurrency: 'USDC',
      sourceAmount: '100.00',
      purpose: 'PERSONAL_ACCOUNT',
    });
    expect(offRamp.request).toMatchObject({ targetCurrency: 'USD' });
    await until(
      () => ponte.transactions.retrieve(offRamp.id),
      (read) => read.status === 'SUCCESS',
    );
    const returned = await ponte.sandbox.returnPayout(offRamp.id, { code: 'R03' });
    expect(returned).toMatchObject({ status: 'RETURNED', failureCode: 'ach_returned', returnCode: 'R03' });
  });
});
