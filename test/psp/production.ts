/**
 * Production money through the PSP simulator, for the tests of the rail: an approved production
 * customer (production has no simulated outcomes: its verification is set APPROVED, as a review would),
 * one funded by an on-ramp paid at the PSP, and off-ramps of it. `get` answers the file's server,
 * simulator and client, which its `beforeAll` makes.
 */
import { expect } from 'vitest';
import { selfBody } from '../bank-accounts/bodies.ts';
import { individualBody } from '../helpers/factories.ts';
import { type Client, eventually } from '../helpers/server.ts';
import { balances, offRamp } from '../off-ramp/support.ts';
import { createOnRamp, type IsolatedServer } from '../transactions/support.ts';
import type { PspSimulator } from './simulator.ts';

/** The PSP id Ponte derives from a transaction (txid, idEnvio): its UUID's 32 hex digits. */
export const idOf = (transaction: { id: string }) => transaction.id.replace(/-/g, '');

export type Funded = { customer: { id: string; taxId: string }; accountId: string };

export function pspProduction(
  get: () => { server: IsolatedServer; simulator: PspSimulator; production: Client },
) {
  /** Every notification the simulator sent has been confirmed and applied. */
  async function settle() {
    const { server, simulator } = get();
    await simulator.idle();
    await server.ctx.pix.settled();
  }

  async function productionCustomer() {
    const { server, production } = get();
    const customer = (await production.post('/customers', individualBody())).json();
    await server.ctx.db.query("UPDATE verifications SET status = 'APPROVED' WHERE customer_id = $1", [
      customer.id,
    ]);
    return customer;
  }

  /** A production customer with a SELF account and 100.00 BRL converted to USDC through the PSP. */
  async function fundedCustomer(): Promise<Funded> {
    const { simulator, production } = get();
    const customer = await productionCustomer();
    const account = await production.post('/bank-accounts', selfBody(customer));
    expect(account.statusCode).toBe(201);
    const onRamp = await createOnRamp(production, customer.id, '100.00');
    await simulator.pay(idOf(onRamp));
    await settle();
    await eventually(
      async () => (await production.get(`/transactions/${onRamp.id}`)).json(),
      (t) => t.status === 'SUCCESS',
    );
    return { customer, accountId: account.json().id as string };
  }

  /** An off-ramp of `sourceAmount` USDC to the customer's own account (a new funded customer by default). */
  async function payout(sourceAmount: string, funded?: Funded) {
    const { production } = get();
    const { customer, accountId } = funded ?? (await fundedCustomer());
    const before = await balances(production, customer.id);
    const created = await offRamp(production, {
      customerId: customer.id,
      bankAccountId: accountId,
      sourceCurrency: 'USDC',
      sourceAmount,
    });
    expect(created.statusCode).toBe(201);
    return { customer, before, transaction: created.json(), sendId: idOf(created.json()) };
  }

  return { settle, productionCustomer, fundedCustomer, payout };
}
