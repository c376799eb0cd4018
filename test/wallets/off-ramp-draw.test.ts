/**
 * An off-ramp pays out of the customer's stablecoin across chains by the wallets' rule: the default
 * chain's wallet first, then the others. Balances, wallets and the ledger agree after every step,
 * including a failed payout (each part goes back to its own chain).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client } from '../helpers/server.ts';
import {
  balances,
  customerWithAccount,
  ledgerBalances,
  offRamp,
  fund as onRampFund,
  settled,
  unbalanced,
} from '../off-ramp/support.ts';
import { type IsolatedServer, startIsolatedServer } from '../transactions/support.ts';
import { fund as chainDeposit, walletOn, walletsTotal } from './support.ts';

let server: IsolatedServer;
let sandbox: Client;

beforeAll(async () => {
  server = await startIsolatedServer();
  sandbox = client(server.sandbox, (await server.newTenant()).sandboxKey);
});
afterAll(async () => {
  await server.close();
});

const usdcOn = async (customerId: string, blockchain: string) =>
  (await walletOn(sandbox, customerId, blockchain)).balances.find((b) => b.currency === 'USDC')!.amount;

async function expectAgreement(customerId: string, usdc: string) {
  expect((await balances(sandbox, customerId)).USDC).toBe(usdc);
  expect(await walletsTotal(sandbox, customerId, 'USDC')).toBe(usdc);
  expect((await ledgerBalances(server, customerId)).USDC).toBe(BigInt(usdc.replace('.', '')));
  expect(await unbalanced(server)).toEqual([]);
}

describe('an off-ramp draws from the wallets: the default chain first, then the others', () => {
  it('draws ETHEREUM then POLYGON; a failed payout puts each part back on its own chain', async () => {
    const { customer, accountId } = await customerWithAccount(sandbox);
    // 1000 BRL on-ramped: 179.1 USDC on the default chain (ETHEREUM)
    expect(await onRampFund(sandbox, customer.id, '1000.00')).toBe('179.100000');
    const deposit = await chainDeposit(sandbox, customer.id, '50', 'POLYGON');
    expect((await settled(sandbox, deposit.id, ['SUCCESS'])).status).toBe('SUCCESS');
    await expectAgreement(customer.id, '229.100000');

    // the sandbox rail rejects a sourceAmount ending in .13: the reservation is released
    const failing = (
      await offRamp(sandbox, {
        customerId: customer.id,
        bankAccountId: accountId,
        sourceCurrency: 'USDC',
        sourceAmount: '200.13',
      })
    ).json();
    expect((await settled(sandbox, failing.id)).status).toBe('FAILED');
    expect(await usdcOn(customer.id, 'ETHEREUM')).toBe('179.100000');
    expect(await usdcOn(customer.id, 'POLYGON')).toBe('50.000000');
    await expectAgreement(customer.id, '229.100000');

    const paid = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '200',
    });
    expect(paid.statusCode).toBe(201);
    // reserved at once: all of ETHEREUM, the remaining 20.9 from POLYGON
    expect(await usdcOn(customer.id, 'ETHEREUM')).toBe('0.000000');
    expect(await usdcOn(customer.id, 'POLYGON')).toBe('29.100000');
    expect((await settled(sandbox, paid.json().id)).status).toBe('SUCCESS');
    await expectAgreement(customer.id, '29.100000');

    // more than the wallets hold together: 422 insufficient_funds, nothing moves
    const tooMuch = await offRamp(sandbox, {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount: '29.2',
    });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().code).toBe('insufficient_funds');
    expect(await usdcOn(customer.id, 'POLYGON')).toBe('29.100000');
    await expectAgreement(customer.id, '29.100000');
  });
});
