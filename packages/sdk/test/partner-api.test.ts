/**
 * The SDK over the partner API's additions: iteration that stays stable while items are created,
 * balances, document uploads, delivery retries, the sandbox's returns, wallet deposits and expiries,
 * events; error codes typed as the documented union; comments that cite only what the package ships.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { individualBody, validCpf } from '../../../test/helpers/factories.ts';
import { type ErrorCode, type Ponte, PonteApiError } from '../src/index.ts';
import { type SdkServer, STARTUP_TIMEOUT_MS, startSdkServer, until } from './support.ts';

let server: SdkServer;
let ponte: Ponte;

beforeAll(async () => {
  server = await startSdkServer();
  ponte = server.ponte();
}, STARTUP_TIMEOUT_MS);
afterAll(() => server?.close());

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

async function approved() {
  const customer = await ponte.customers.create(individualBody() as never);
  await until(
    () => ponte.customers.retrieve(customer.id),
    (found) => found.verification.status === 'APPROVED',
  );
  return customer;
}

describe('for await over a list', () => {
  it('never repeats or skips a customer that existed when it began, while customers are created', async () => {
    const tenant = await server.newTenant('Iteration');
    const { Ponte: Client } = await import('../src/index.ts');
    const client = new Client({ apiKey: tenant.sandboxKey, baseUrl: server.url });
    const create = (i: number) =>
      client.customers.create({
        type: 'INDIVIDUAL',
        name: `Cliente ${i}`,
        taxId: validCpf('1'),
        country: 'BRA',
        email: `cliente${i}@example.com`,
      });
    for (let i = 0; i < 7; i++) await create(i);
    const existing = (await client.customers.list({ limit: 50 })).data.map((customer) => customer.id);
    const seen: string[] = [];
    let created = 0;
    for await (const customer of client.customers.list({ limit: 2 })) {
      seen.push(customer.id);
      // a customer created after every item read: page numbers would show the last one again
      if (seen.length % 2 === 0) await create(100 + created++);
    }
    expect(created).toBeGreaterThanOrEqual(3);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(existing);
  });
});

describe('methods', () => {
  it('reads balances, uploads a document and lists it, and deposits to a wallet in the sandbox', async () => {
    const customer = await approved();
    const wallet = (await ponte.wallets.list(customer.id)).data.find((w) => w.isDefault)!;
    const deposit = await ponte.sandbox.walletDeposit(wallet.address, { currency: 'USDC', amount: '12.5' });
    expect(deposit).toMatchObject({ type: 'DEPOSIT' });
    const balances = await ponte.balances.retrieve(customer.id);
    expect(balances.balances).toContainEqual({ currency: 'USDC', amount: '12.500000' });

    const document = await ponte.documents.upload(customer.id, { file: PNG, fileName: 'statement.png' });
    expect(document).toMatchObject({ type: 'LIMIT_REQUEST_BANK_STATEMENT', fileName: 'statement.png' });
    expect((await ponte.documents.retrieve(customer.id, document.id)).id).toBe(document.id);
    const listed: string[] = [];
    for await (const item of ponte.documents.list(customer.id)) listed.push(item.id);
    expect(listed).toContain(document.id);
  });

  it('expires an on-ramp and a locked quote now, and reads the events they leave', async () => {
    const customer = await approved();
    const ramp = await ponte.transactions.onRamp({
      customerId: customer.id,
      currency: 'BRL',
      amount: '10.00',
    });
    const expired = await ponte.sandbox.expireTransaction(ramp.id);
    expect(expired.status).toBe('EXPIRED');
    const quote = await ponte.exchangeRates.create({
      type: 'LOCKED',
      sourceCurrency: 'BRL',
      targetCurrency: 'USDC',
      sourceAmount: '10.00',
    });
    const stale = await ponte.sandbox.expireExchangeRate(quote.id);
    expect(Date.parse(stale.expiresAt!)).toBeLessThanOrEqual(Date.now());

    const updates = [];
    for await (const event of ponte.events.list({ type: 'transaction.updated', limit: 5 })) {
      updates.push(event);
      if (updates.length === 5) break;
    }
    const event = updates.find((item) => (item.data as { id?: string }).id === ramp.id)!;
    expect(event).toMatchObject({ eventType: 'transaction.updated', environment: 'sandbox' });
    expect(await ponte.events.retrieve(event.eventId)).toEqual(event);
  });

  it('returns a SUCCESS off-ramp in the sandbox and retries a delivery', async () => {
    const endpoint = await ponte.webhookEndpoints.create({ url: 'https://93.184.215.14/hooks' });
    await ponte.customers.create(individualBody({ taxId: validCpf('1') }) as never);
    const delivery = await until(
      async () => (await ponte.webhookEndpoints.deliveries(endpoint.id, { limit: 1 })).data[0],
      (found) => found !== undefined,
      60_000,
    );
    const retried = await ponte.webhookEndpoints.retryDelivery(endpoint.id, delivery!.id);
    expect(retried).toMatchObject({ id: delivery!.id });

    const missing = '00000000-0000-4000-8000-000000000000';
    const error = await ponte.sandbox.returnPayout(missing).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PonteApiError);
    expect((error as PonteApiError).code).toBe('not_found');
  });
});

describe('types and comments', () => {
  it("types PonteApiError.code as the document's union of codes", () => {
    expectTypeOf<PonteApiError['code']>().toEqualTypeOf<ErrorCode | `http_${number}`>();
    expectTypeOf<'customer_exists'>().toMatchTypeOf<ErrorCode>();
    // @ts-expect-error: not a code the API documents
    const unknown: ErrorCode = 'no_such_code';
    expect(unknown).toBe('no_such_code');
  });

  it('cites in its comments no file the package does not ship', async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
    const shipped = new Set(['README.md', 'package.json']);
    const cited: string[] = [];
    const files = (await readdir(root, { recursive: true })).filter(
      (file) => file.endsWith('.ts') && !file.startsWith('generated'),
    );
    for (const file of files) {
      const text = await readFile(path.join(root, file), 'utf8');
      const comments = text.match(/\/\*[\s\S]*?\*\/|\/\/.*$/gm) ?? [];
      for (const comment of comments) {
        for (const name of comment.match(/[\w./-]+\.(?:md|ts|js|json|sh|sql|yaml)\b/g) ?? []) {
          if (!shipped.has(name)) cited.push(`${file}: ${name}`);
        }
      }
    }
    expect(cited).toEqual([]);
  });
});
