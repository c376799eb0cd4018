/**
 * Addresses screened: every external transfer's destination and every inbound deposit's origin, checked
 * exactly against the addresses in force for that chain (EVM without regard to case, Tron base58 as
 * written). A listed destination: 422 sanctioned_address, nothing booked. A listed origin, or a transfer
 * beneficiary whose name may be listed: the transaction is held until an operator decides.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvedCustomer, individualBody } from '../helpers/factories.ts';
import { eventually, startTestApi, type TestApi } from '../helpers/server.ts';
import { fund, walletOn } from '../wallets/support.ts';
import { importFixture, LISTED_EVM, LISTED_TRON, OFAC_DIR, UNLISTED_TRON } from './support.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ ownDatabase: true });
  await importFixture(api.server, 'ofac-sdn', OFAC_DIR);
});
afterAll(() => api.server.close());

const db = () => api.server.ctx.db;
const EXTERNAL = '0x52908400098527886E0F7030069857D2E4169EE7';

const ledger = async () =>
  Number((await db().query<{ n: bigint }>(`SELECT count(*) AS n FROM ledger_journals`))[0]!.n);
const balanceOn = async (customerId: string, blockchain: string, currency: string) =>
  (await walletOn(api.sandbox, customerId, blockchain)).balances.find((b) => b.currency === currency)
    ?.amount ?? '0.000000';

async function funded(name: string, amount = '100', blockchain = 'ETHEREUM', currency = 'USDC') {
  const customer = await approvedCustomer(
    api.sandbox,
    individualBody({ name, email: `${name.split(' ')[0]}@example.com` }),
  );
  await fund(api.sandbox, customer.id, amount, blockchain, currency);
  return customer;
}

async function openCase(subjectId: string) {
  const answer = await api.operator.get(`/operator/screening/cases?subjectId=${subjectId}&status=OPEN`);
  return answer.json().data[0] as { id: string; subjectType: string; reason: string } | undefined;
}

describe('screening addresses', () => {
  it('refuses a transfer to a listed EVM address with 422 sanctioned_address, in any letter case, booking nothing', async () => {
    const customer = await funded('Helena Prado');
    const journals = await ledger();
    // as listed (mixed-case checksum) and in lower case (no checksum)
    for (const to of [LISTED_EVM, LISTED_EVM.toLowerCase()]) {
      const answer = await api.sandbox.post('/transactions/transfer', {
        currency: 'USDC',
        from: customer.id,
        to,
        amount: '5',
      });
      expect(answer.statusCode, to).toBe(422);
      expect(answer.json()).toMatchObject({ code: 'sanctioned_address', errors: [{ pointer: '/body/to' }] });
    }
    expect(await ledger()).toBe(journals);
    expect(await balanceOn(customer.id, 'ETHEREUM', 'USDC')).toBe('100.000000');
    const ok = await api.sandbox.post('/transactions/transfer', {
      currency: 'USDC',
      from: customer.id,
      to: EXTERNAL,
      amount: '5',
    });
    expect(ok.statusCode).toBe(201);
  });

  it('refuses a transfer to a listed Tron address (base58, exact) and lets its unlisted neighbour through', async () => {
    const customer = await funded('Otavio Brandao', '50', 'TRON', 'USDT');
    const listed = await api.sandbox.post('/transactions/transfer', {
      currency: 'USDT',
      from: customer.id,
      to: LISTED_TRON,
      amount: '1',
      blockchain: 'TRON',
    });
    expect(listed.statusCode).toBe(422);
    expect(listed.json().code).toBe('sanctioned_address');
    const unlisted = await api.sandbox.post('/transactions/transfer', {
      currency: 'USDT',
      from: customer.id,
      to: UNLISTED_TRON,
      amount: '1',
      blockchain: 'TRON',
    });
    expect(unlisted.statusCode).toBe(201);
  });

  it('holds a deposit from a listed address uncredited; cleared, it is credited', async () => {
    const customer = await approvedCustomer(
      api.sandbox,
      individualBody({ name: 'Livia Campos', email: 'lc@example.com' }),
    );
    const wallet = await walletOn(api.sandbox, customer.id, 'ETHEREUM');
    const answer = await api.sandbox.post(`/sandbox/wallets/${wallet.address}/deposit`, {
      currency: 'USDC',
      amount: '20',
      blockchain: 'ETHEREUM',
      from: LISTED_EVM.toLowerCase(),
    });
    expect(answer.statusCode).toBe(201);
    const deposit = answer.json();
    expect(deposit.status).toBe('PROCESSING');
    expect(await balanceOn(customer.id, 'ETHEREUM', 'USDC')).toBe('0.000000');
    const found = await openCase(deposit.id);
    expect(found).toMatchObject({ subjectType: 'DEPOSIT', reason: 'ADDRESS_MATCH' });
    const cleared = await api.operator.post(`/operator/screening/cases/${found!.id}/decision`, {
      decision: 'CLEAR',
      comment: 'Funds traced to an exchange hot wallet reusing the key; cleared by the MLRO',
    });
    expect(cleared.statusCode).toBe(200);
    expect((await api.sandbox.get(`/transactions/${deposit.id}`)).json().status).toBe('SUCCESS');
    expect(await balanceOn(customer.id, 'ETHEREUM', 'USDC')).toBe('20.000000');
  });

  it('a confirmed listed origin fails the deposit, never credited, audited and reported', async () => {
    const customer = await approvedCustomer(
      api.sandbox,
      individualBody({ name: 'Caio Moura', email: 'cm@example.com' }),
    );
    const wallet = await walletOn(api.sandbox, customer.id, 'ETHEREUM');
    const deposit = (
      await api.sandbox.post(`/sandbox/wallets/${wallet.address}/deposit`, {
        currency: 'USDC',
        amount: '20',
        blockchain: 'ETHEREUM',
        from: LISTED_EVM,
      })
    ).json();
    const found = await openCase(deposit.id);
    const confirmed = await api.operator.post(`/operator/screening/cases/${found!.id}/decision`, {
      decision: 'CONFIRM',
      comment: 'Listed address',
    });
    expect(confirmed.statusCode).toBe(200);
    const read = (await api.sandbox.get(`/transactions/${deposit.id}`)).json();
    expect(read.status).toBe('FAILED');
    expect(read.failureReason).toMatch(/sanctions/);
    expect(await balanceOn(customer.id, 'ETHEREUM', 'USDC')).toBe('0.000000');
    const [event] = await db().query<{ data: { status: string } }>(
      `SELECT data FROM events WHERE type = 'transaction.updated' AND resource_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`,
      [deposit.id],
    );
    expect(event!.data.status).toBe('FAILED');
  });

  it('a transfer whose beneficiary may be listed is held with its amount reserved; confirmed, it fails with the reserve released', async () => {
    const customer = await funded('Sofia Rezende');
    const answer = await api.sandbox.post('/transactions/transfer', {
      currency: 'USDC',
      from: customer.id,
      to: EXTERNAL,
      amount: '30',
      travelRule: { beneficiary: { name: 'Dmitry Kovalenko' }, walletType: 'SELF_HOSTED' },
    });
    expect(answer.statusCode).toBe(201);
    const transfer = answer.json();
    expect(transfer.status).toBe('PROCESSING');
    expect(await balanceOn(customer.id, 'ETHEREUM', 'USDC')).toBe('70.000000');
    const sends = await db().query(`SELECT id FROM chain_sends WHERE transaction_id = $1`, [transfer.id]);
    expect(sends).toEqual([]);
    const found = await openCase(transfer.id);
    expect(found).toMatchObject({ subjectType: 'TRANSFER', reason: 'NAME_MATCH' });
    const confirmed = await api.operator.post(`/operator/screening/cases/${found!.id}/decision`, {
      decision: 'CONFIRM',
      comment: 'Beneficiary is the listed person',
    });
    expect(confirmed.statusCode).toBe(200);
    const read = (await api.sandbox.get(`/transactions/${transfer.id}`)).json();
    expect(read.status).toBe('FAILED');
    expect(await balanceOn(customer.id, 'ETHEREUM', 'USDC')).toBe('100.000000');
  });

  it('a held transfer cleared by the operator is sent', async () => {
    const customer = await funded('Bianca Teles');
    const transfer = (
      await api.sandbox.post('/transactions/transfer', {
        currency: 'USDC',
        from: customer.id,
        to: EXTERNAL,
        amount: '10',
        travelRule: { beneficiary: { name: 'Kovalenko Dmitri' }, walletType: 'SELF_HOSTED' },
      })
    ).json();
    const found = await openCase(transfer.id);
    const cleared = await api.operator.post(`/operator/screening/cases/${found!.id}/decision`, {
      decision: 'CLEAR',
      comment: 'A namesake; identity document checked',
    });
    expect(cleared.statusCode).toBe(200);
    const done = await eventually(
      () => api.sandbox.get(`/transactions/${transfer.id}`).then((r) => r.json()),
      (t) => t.status === 'SUCCESS',
      10_000,
    );
    expect(done.receipt.blockchain.transactionHash).toMatch(/^0x/);
    expect(await balanceOn(customer.id, 'ETHEREUM', 'USDC')).toBe('90.000000');
  });
});
