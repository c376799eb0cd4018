/** The SDK's USD accounts: opened for an approved customer, listed, read and closed through `ponte.accounts`. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { individualBody, validCpf } from '../../../test/helpers/factories.ts';
import { type Ponte, PonteApiError } from '../src/index.ts';
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

  it('a customer not approved gets the typed 409 customer_not_approved', async () => {
    const customer = await ponte.customers.create(individualBody({ taxId: validCpf('1') }) as never);
    const error = await ponte.accounts.create(customer.id, { currency: 'USD' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PonteApiError);
    expect((error as PonteApiError).code).toBe('customer_not_approved');
  });
});
