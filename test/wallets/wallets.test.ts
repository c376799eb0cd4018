import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerBalances } from '../../src/modules/ledger/repo.ts';
import { tronAddressProblem } from '../../src/rails/chains/tron-address.ts';
import { approvedCustomer, createCustomer, individualBody, validCpf } from '../helpers/factories.ts';
import { type Client, client, startTestServer, type TestServer } from '../helpers/server.ts';
import { createOnRamp, setRate } from '../transactions/support.ts';
import { fund, totalOf, transfer, walletOn, walletsOf, walletsTotal } from './support.ts';

let server: TestServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startTestServer();
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(() => server.close());

const EXTERNAL = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('GET /customers/{id}/wallets', () => {
  it('lists one wallet per blockchain with real addresses, explorer links and balances', async () => {
    const customer = await approvedCustomer(sandbox);
    const wallets = await walletsOf(sandbox, customer.id);
    expect(wallets.map((w) => w.blockchain)).toEqual(['ETHEREUM', 'POLYGON', 'BASE', 'TRON']);
    for (const wallet of wallets.filter((w) => w.blockchain !== 'TRON')) {
      expect(getAddress(wallet.address)).toBe(wallet.address);
      expect(wallet.address).toMatch(/[a-f]/);
      expect(wallet.address).toMatch(/[A-F]/);
    }
    const tron = wallets.find((w) => w.blockchain === 'TRON')!;
    expect(tron.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(tronAddressProblem(tron.address)).toBeNull();
    expect(wallets.filter((w) => w.isDefault).map((w) => w.blockchain)).toEqual(['ETHEREUM']);
    expect(wallets[0]!.blockExplorerUrl).toBe(`https://sepolia.etherscan.io/address/${wallets[0]!.address}`);
    expect(tron.blockExplorerUrl).toBe(`https://nile.tronscan.org/#/address/${tron.address}`);
    expect(wallets.find((w) => w.blockchain === 'BASE')!.balances.map((b) => b.currency)).toEqual(['USDC']);
    expect(wallets[0]!.balances).toEqual([
      { currency: 'USDC', amount: '0.000000', updatedAt: expect.any(String) },
      { currency: 'USDT', amount: '0.000000', updatedAt: expect.any(String) },
    ]);
  });

  it('derives stable addresses: the same on every read, one per customer, shared by the EVM chains', async () => {
    const [first, second] = [await approvedCustomer(sandbox), await approvedCustomer(sandbox)];
    const once = await walletsOf(sandbox, first.id);
    expect(await walletsOf(sandbox, first.id)).toEqual(once);
    const other = await walletsOf(sandbox, second.id);
    expect(other[0]!.address).not.toBe(once[0]!.address);
    expect(new Set(once.slice(0, 3).map((w) => w.address)).size).toBe(1);
  });

  it('has no wallets before the customer is APPROVED, and 404 for an unknown customer', async () => {
    const pending = await createCustomer(sandbox, individualBody({ taxId: validCpf('1') }));
    expect((await sandbox.get(`/customers/${pending.id}/wallets`)).json()).toEqual({ data: [] });
    const unknown = await sandbox.get('/customers/0190c7a0-0000-7000-8000-000000000000/wallets');
    expect(unknown.statusCode).toBe(404);
  });
});

describe('POST /sandbox/wallets/{address}/deposit', () => {
  it('credits a simulated inbound transfer to the wallet as a DEPOSIT, with its events', async () => {
    const customer = await approvedCustomer(sandbox);
    const deposit = await fund(sandbox, customer.id, '40.500000', 'POLYGON');
    expect(deposit).toMatchObject({ type: 'DEPOSIT', status: 'SUCCESS', request: { amount: '40.500000' } });
    expect(deposit.receipt.blockchain.network).toBe('POLYGON');
    expect(deposit.receipt.blockchain.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await walletOn(sandbox, customer.id, 'POLYGON')).balances[0]!.amount).toBe('40.500000');
    expect(await totalOf(sandbox, customer.id, 'USDC')).toBe('40.500000');
    const events = await server.ctx.db.query<{ type: string; data: { status: string } }>(
      'SELECT type, data FROM events WHERE resource_id = $1 ORDER BY seq',
      [deposit.id],
    );
    expect(events.map((e) => [e.type, e.data.status])).toEqual([
      ['transaction.created', 'PROCESSING'],
      ['transaction.updated', 'SUCCESS'],
    ]);
  });

  it('answers 404 for an address that is not a wallet of the project', async () => {
    const response = await sandbox.post(`/sandbox/wallets/${EXTERNAL}/deposit`, {
      currency: 'USDC',
      amount: '1',
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('POST /transactions/transfer', () => {
  it('moves the balance at once to another customer of the project', async () => {
    const [from, to] = [await approvedCustomer(sandbox), await approvedCustomer(sandbox)];
    await fund(sandbox, from.id, '100.000000');
    const response = await transfer(sandbox, { currency: 'USDC', from: from.id, to: to.id, amount: '30.25' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      type: 'TRANSFER',
      status: 'SUCCESS',
      request: { currency: 'USDC', amount: '30.250000', blockchain: 'ETHEREUM', from: from.id, to: to.id },
      receipt: { sourceAmount: '30.250000', fee: '0.000000', targetAmount: '30.250000' },
    });
    expect(await totalOf(sandbox, from.id, 'USDC')).toBe('69.750000');
    expect(await totalOf(sandbox, to.id, 'USDC')).toBe('30.250000');
    const listed = (await sandbox.get(`/transactions?customerId=${to.id}`)).json().data;
    expect(listed.map((t: { id: string }) => t.id)).toContain(response.json().id);
  });

  it('moves the balance at once to a customer named by one of their addresses', async () => {
    const [from, to] = [await approvedCustomer(sandbox), await approvedCustomer(sandbox)];
    await fund(sandbox, from.id, '10');
    const address = (await walletOn(sandbox, to.id, 'ETHEREUM')).address;
    const response = await transfer(sandbox, {
      currency: 'USDC',
      from: from.id,
      to: address.toLowerCase(),
      amount: '4',
    });
    expect(response.json()).toMatchObject({ status: 'SUCCESS', request: { to: to.id } });
    expect(await totalOf(sandbox, to.id, 'USDC')).toBe('4.000000');
  });

  it('sends to an external address on chain, with its hash and explorer link in the receipt', async () => {
    const from = await approvedCustomer(sandbox);
    await fund(sandbox, from.id, '50');
    const response = await transfer(sandbox, {
      currency: 'USDC',
      from: from.id,
      to: EXTERNAL,
      amount: '20',
      metadata: { orderId: 'A-1' },
    });
    expect(response.statusCode).toBe(201);
    const sent = response.json();
    expect(sent).toMatchObject({ type: 'TRANSFER', status: 'SUCCESS', metadata: { orderId: 'A-1' } });
    const hash = sent.receipt.blockchain.transactionHash;
    expect(sent.receipt.blockchain).toEqual({
      network: 'ETHEREUM',
      transactionHash: hash,
      blockExplorerUrl: `https://sepolia.etherscan.io/tx/${hash}`,
    });
    expect(sent.timeline.map((s: { status: string }) => s.status)).toEqual(['PROCESSING', 'SUCCESS']);
    expect(await totalOf(sandbox, from.id, 'USDC')).toBe('30.000000');
  });

  it('sends on Tron to a base58check address', async () => {
    const from = await approvedCustomer(sandbox);
    await fund(sandbox, from.id, '5', 'TRON', 'USDT');
    const response = await transfer(sandbox, {
      currency: 'USDT',
      from: from.id,
      to: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      amount: '5',
      blockchain: 'TRON',
    });
    expect(response.json()).toMatchObject({ status: 'SUCCESS' });
    expect(response.json().receipt.blockchain.transactionHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await totalOf(sandbox, from.id, 'USDT')).toBe('0.000000');
  });

  it('refuses an address that is not valid for the chain with a 400 and a pointer, changing nothing', async () => {
    const from = await approvedCustomer(sandbox);
    await fund(sandbox, from.id, '10');
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ to: EXTERNAL.replace('E7', 'e7') }, '/body/to', /checksum/],
      [{ to: `${EXTERNAL}00` }, '/body/to', /40 hexadecimal/],
      [{ to: '0x1234' }, '/body/to', /40 hexadecimal/],
      [{ to: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }, '/body/to', /EVM address/],
      [{ to: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T', blockchain: 'TRON' }, '/body/to', /checksum/],
      [{ to: EXTERNAL, blockchain: 'TRON' }, '/body/to', /Tron address/],
      [{ to: EXTERNAL, currency: 'USDT', blockchain: 'BASE' }, '/body/currency', /not available on BASE/],
      [{ to: EXTERNAL, amount: '1.0000001' }, '/body/amount', /.+/],
      [{ to: EXTERNAL, amount: '0' }, '/body/amount', /greater than zero/],
    ];
    for (const [change, pointer, message] of cases) {
      const response = await transfer(sandbox, { currency: 'USDC', from: from.id, amount: '1', ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      const [error] = response.json().errors;
      expect(error.pointer).toBe(pointer);
      expect(error.message).toMatch(message);
    }
    expect(await totalOf(sandbox, from.id, 'USDC')).toBe('10.000000');
  });

  it('refuses more than the wallet on the chain holds with 422 insufficient_funds', async () => {
    const from = await approvedCustomer(sandbox);
    await fund(sandbox, from.id, '10', 'POLYGON');
    const onEthereum = await transfer(sandbox, {
      currency: 'USDC',
      from: from.id,
      to: EXTERNAL,
      amount: '1',
    });
    expect(onEthereum.statusCode).toBe(422);
    expect(onEthereum.json().code).toBe('insufficient_funds');
    const tooMuch = await transfer(sandbox, {
      currency: 'USDC',
      from: from.id,
      to: EXTERNAL,
      amount: '10.000001',
      blockchain: 'POLYGON',
    });
    expect(tooMuch.json()).toMatchObject({ status: 422, code: 'insufficient_funds' });
    expect(await totalOf(sandbox, from.id, 'USDC')).toBe('10.000000');
  });

  it('refuses a sender that is not APPROVED (409) and an unknown one (404)', async () => {
    const pending = await createCustomer(sandbox, individualBody({ taxId: validCpf('1') }));
    const refused = await transfer(sandbox, {
      currency: 'USDC',
      from: pending.id,
      to: EXTERNAL,
      amount: '1',
    });
    expect(refused.json()).toMatchObject({ status: 409, code: 'customer_not_approved' });
    const unknown = await transfer(sandbox, {
      currency: 'USDC',
      from: '0190c7a0-0000-7000-8000-000000000000',
      to: EXTERNAL,
      amount: '1',
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('balances', () => {
  it('per currency, the total equals the sum of the wallets and the ledger', async () => {
    await setRate(server, 'BRL/USDC', '0.2');
    const customer = await approvedCustomer(sandbox);
    const onRamp = await createOnRamp(sandbox, customer.id, '100.00', { blockchain: 'POLYGON' });
    const deposited = await sandbox.post(`/sandbox/transactions/${onRamp.id}/deposit`, {});
    expect(deposited.json()).toMatchObject({ status: 'SUCCESS', request: { blockchain: 'POLYGON' } });
    expect(deposited.json().receipt.blockchain.network).toBe('POLYGON');
    await fund(sandbox, customer.id, '3.5', 'BASE');
    const other = await approvedCustomer(sandbox);
    await transfer(sandbox, {
      currency: 'USDC',
      from: customer.id,
      to: other.id,
      amount: '1',
      blockchain: 'BASE',
    });
    await transfer(sandbox, {
      currency: 'USDC',
      from: customer.id,
      to: EXTERNAL,
      amount: '2',
      blockchain: 'POLYGON',
    });

    const total = await totalOf(sandbox, customer.id, 'USDC');
    expect(await walletsTotal(sandbox, customer.id, 'USDC')).toBe(total);
    const ledger = (await customerBalances(server.ctx.db, customer.id)).get('USDC')!;
    expect(total.replace('.', '')).toBe(ledger.toString());
    expect((await walletOn(sandbox, customer.id, 'BASE')).balances[0]!.amount).toBe('2.500000');
  });
});

describe('OpenAPI', () => {
  it('documents the wallet routes and the transfer fields', async () => {
    const document = (await server.sandbox.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/customers/{id}/wallets',
        '/transactions/transfer',
        '/sandbox/wallets/{address}/deposit',
      ]),
    );
    const transaction = document.components.schemas.Transaction;
    expect(transaction.properties.type.enum).toEqual(['ON_RAMP', 'OFF_RAMP', 'TRANSFER', 'DEPOSIT']);
    expect(JSON.stringify(transaction)).toContain('blockExplorerUrl');
  });
});
